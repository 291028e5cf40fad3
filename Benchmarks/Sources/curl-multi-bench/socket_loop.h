#ifndef CURL_MULTI_BENCH_SOCKET_LOOP_H
#define CURL_MULTI_BENCH_SOCKET_LOOP_H

/// COUNT GETs of URL with INFLIGHT in flight, driven through curl's socket interface
/// (`curl_multi_socket_action` with epoll and curl's timers) instead of the poll loop, over
/// SHARDS multi handles driven by one thread; prints the same result line. Plain HTTP only
/// (a baseline for many concurrent connections).
int run_socket_loop(const char *url, long count, long inflight, long shards);

#endif
