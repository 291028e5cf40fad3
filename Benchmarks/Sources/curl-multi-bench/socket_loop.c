// The socket-interface form of the request baseline: curl tells us which sockets to watch
// (CURLMOPT_SOCKETFUNCTION) and when to call back (CURLMOPT_TIMERFUNCTION); one epoll set
// waits on them, and each wake-up hands curl only the sockets that are ready. With SHARDS > 1
// the transfers are spread over that many multi handles, all driven by the one thread and the
// one epoll set: each multi handle then keeps 1/SHARDS of the transfers and connections.

#include "socket_loop.h"

#include "result.h"
#include "tally.h"

#include <curl/curl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <unistd.h>

struct shard {
    CURLM *multi;
    int epoll_fd;
    uint32_t index;
    double deadline;  // when curl wants its timer call, or -1 for none
};

static int on_socket(CURL *easy, curl_socket_t socket, int what, void *context, void *socket_data) {
    (void)easy;
    struct shard *shard = context;
    struct epoll_event event = {0};
    event.data.u64 = ((uint64_t)shard->index << 32) | (uint32_t)socket;
    if (what == CURL_POLL_REMOVE) {
        epoll_ctl(shard->epoll_fd, EPOLL_CTL_DEL, socket, NULL);
        return 0;
    }
    if (what & CURL_POLL_IN) event.events |= EPOLLIN;
    if (what & CURL_POLL_OUT) event.events |= EPOLLOUT;
    // socket_data marks a socket already in the set: modify it rather than add it again.
    if (socket_data) {
        epoll_ctl(shard->epoll_fd, EPOLL_CTL_MOD, socket, &event);
    } else {
        epoll_ctl(shard->epoll_fd, EPOLL_CTL_ADD, socket, &event);
        curl_multi_assign(shard->multi, socket, shard);
    }
    return 0;
}

static int on_timer(CURLM *multi, long timeout_ms, void *context) {
    (void)multi;
    ((struct shard *)context)->deadline = timeout_ms < 0 ? -1 : bench_now() + (double)timeout_ms / 1000;
    return 0;
}

int run_socket_loop(const char *url, long count, long inflight, long shard_count) {
    if (count <= 0 || inflight <= 0 || shard_count <= 0) return 2;
    if (inflight > count) inflight = count;
    curl_global_init(CURL_GLOBAL_DEFAULT);
    int epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    struct shard *shards = calloc((size_t)shard_count, sizeof(struct shard));
    for (long k = 0; k < shard_count; k++) {
        CURLM *multi = curl_multi_init();
        shards[k] = (struct shard){multi, epoll_fd, (uint32_t)k, -1};
        curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, on_socket);
        curl_multi_setopt(multi, CURLMOPT_SOCKETDATA, &shards[k]);
        curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, on_timer);
        curl_multi_setopt(multi, CURLMOPT_TIMERDATA, &shards[k]);
        curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, inflight);
        curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, inflight);
    }

    struct bench_tally tally = {.count = count};
    CURL **handles = calloc((size_t)inflight, sizeof(CURL *));
    for (long i = 0; i < inflight; i++) handles[i] = bench_easy(url, &tally);

    double start = bench_now();
    for (; tally.started < inflight; tally.started++) {
        curl_multi_add_handle(shards[tally.started % shard_count].multi, handles[tally.started]);
    }

    int running = 0;
    struct epoll_event events[256];
    while (tally.finished < count) {
        double soonest = -1;
        for (long k = 0; k < shard_count; k++) {
            if (shards[k].deadline >= 0 && (soonest < 0 || shards[k].deadline < soonest)) soonest = shards[k].deadline;
        }
        int timeout = soonest < 0 ? 1000 : (int)((soonest - bench_now()) * 1000 + 0.999);
        int ready = epoll_wait(epoll_fd, events, 256, timeout < 0 ? 0 : timeout);
        for (int i = 0; i < ready; i++) {
            struct shard *shard = &shards[events[i].data.u64 >> 32];
            int mask = (events[i].events & EPOLLIN ? CURL_CSELECT_IN : 0) |
                       (events[i].events & EPOLLOUT ? CURL_CSELECT_OUT : 0) |
                       (events[i].events & (EPOLLERR | EPOLLHUP) ? CURL_CSELECT_ERR : 0);
            curl_multi_socket_action(shard->multi, (curl_socket_t)(uint32_t)events[i].data.u64, mask, &running);
        }
        double time = bench_now();
        for (long k = 0; k < shard_count; k++) {
            if (shards[k].deadline >= 0 && shards[k].deadline <= time) {
                shards[k].deadline = -1;
                curl_multi_socket_action(shards[k].multi, CURL_SOCKET_TIMEOUT, 0, &running);
            }
        }
        for (long k = 0; k < shard_count; k++) bench_take_finished(shards[k].multi, &tally);
    }
    double seconds = bench_now() - start;

    bench_print_result(count, tally.failures, seconds, tally.connections, (long long)tally.bytes);

    for (long i = 0; i < inflight; i++) curl_easy_cleanup(handles[i]);
    free(handles);
    for (long k = 0; k < shard_count; k++) curl_multi_cleanup(shards[k].multi);
    free(shards);
    close(epoll_fd);
    curl_global_cleanup();
    return tally.failures == 0 ? 0 : 1;
}
