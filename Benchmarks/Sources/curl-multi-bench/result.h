#ifndef CURL_MULTI_BENCH_RESULT_H
#define CURL_MULTI_BENCH_RESULT_H

#include <stddef.h>

/// Seconds on the monotonic clock.
double bench_now(void);

/// A write callback that counts the body's bytes into the size_t at `context` and drops them.
size_t bench_discard(char *data, size_t size, size_t count, void *context);

/// Prints the one result line every benchmark client prints (see BenchSupport's RunResult),
/// with this process's CPU time and peak resident size.
void bench_print_result(long requests, long failures, double seconds, long connections, long long bytes);

#endif
