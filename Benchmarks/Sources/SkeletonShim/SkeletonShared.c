// The shared-multi shape of skeleton-bench: curl under one mutex, driven by whichever thread has
// work (callers send their requests themselves), with one thread blocked in epoll_wait outside
// the mutex for what the network brings.

#include "SkeletonShim.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

struct skeleton_shared {
    CURLM *multi;
    pthread_mutex_t lock;
    int epoll;
    int wake;                 // eventfd: an earlier curl deadline than the waiter knows
    skeleton_done_callback done;
    void *context;
};

static int on_socket(CURL *easy, curl_socket_t socket, int what, void *userp, void *socketp) {
    (void)easy; (void)socketp;
    skeleton_shared *shared = userp;
    if (what == CURL_POLL_REMOVE) {
        epoll_ctl(shared->epoll, EPOLL_CTL_DEL, socket, NULL);
        return 0;
    }
    struct epoll_event event = {0};
    if (what & CURL_POLL_IN) event.events |= EPOLLIN;
    if (what & CURL_POLL_OUT) event.events |= EPOLLOUT;
    event.data.fd = socket;
    if (epoll_ctl(shared->epoll, EPOLL_CTL_MOD, socket, &event) != 0) {
        epoll_ctl(shared->epoll, EPOLL_CTL_ADD, socket, &event);
    }
    return 0;
}

/// curl's next deadline in milliseconds (-1: none), asked of curl itself: its timer callback is
/// not called again while its earliest deadline keeps its time, so a value kept from the callback
/// can stay in the past and make the waiter spin on epoll_wait(0). Under the lock.
static long next_timeout(skeleton_shared *shared) {
    long timeout = -1;
    curl_multi_timeout(shared->multi, &timeout);
    return timeout;
}

skeleton_shared *skeleton_shared_create(long inflight, skeleton_done_callback done, void *context) {
    skeleton_shared *shared = calloc(1, sizeof(*shared));
    if (!shared) return NULL;
    shared->multi = skeleton_multi(inflight);
    pthread_mutex_init(&shared->lock, NULL);
    shared->epoll = epoll_create1(EPOLL_CLOEXEC);
    shared->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    struct epoll_event event = {.events = EPOLLIN, .data.fd = shared->wake};
    epoll_ctl(shared->epoll, EPOLL_CTL_ADD, shared->wake, &event);
    shared->done = done;
    shared->context = context;
    curl_multi_setopt(shared->multi, CURLMOPT_SOCKETFUNCTION, on_socket);
    curl_multi_setopt(shared->multi, CURLMOPT_SOCKETDATA, shared);
    return shared;
}

/// Under the lock: collects finished transfers into `finished`/`statuses` (at most `capacity`).
static int collect(skeleton_shared *shared, skeleton_transfer **finished, long *statuses, int capacity) {
    int count = 0;
    CURLMsg *message;
    int queued;
    while (count < capacity && (message = curl_multi_info_read(shared->multi, &queued))) {
        CURL *easy;
        CURLcode result;
        if (!skeleton_done(message, &easy, &result)) continue;
        finished[count] = skeleton_transfer_of(easy);
        statuses[count] = result == CURLE_OK ? skeleton_status(easy) : 0;
        curl_multi_remove_handle(shared->multi, easy);
        count++;
    }
    return count;
}

static void report(skeleton_shared *shared, skeleton_transfer **finished, long *statuses, int count) {
    for (int i = 0; i < count; i++) shared->done(shared->context, finished[i], statuses[i]);
}

void skeleton_shared_start(skeleton_shared *shared, skeleton_transfer *transfer) {
    skeleton_transfer *finished[64];
    long statuses[64];
    int running;
    pthread_mutex_lock(&shared->lock);
    long before = next_timeout(shared);
    curl_multi_add_handle(shared->multi, transfer->easy);
    curl_multi_socket_action(shared->multi, CURL_SOCKET_TIMEOUT, 0, &running);
    int count = collect(shared, finished, statuses, 64);
    long after = next_timeout(shared);
    pthread_mutex_unlock(&shared->lock);
    // The waiter sleeps on the deadline it saw; tell it when curl now wants one sooner.
    if (after >= 0 && (before < 0 || after < before)) {
        uint64_t one = 1;
        (void)!write(shared->wake, &one, sizeof(one));
    }
    report(shared, finished, statuses, count);
}

void skeleton_shared_run(skeleton_shared *shared) {
    struct epoll_event events[64];
    skeleton_transfer *finished[64];
    long statuses[64];
    for (;;) {
        pthread_mutex_lock(&shared->lock);
        long timeout = next_timeout(shared);
        pthread_mutex_unlock(&shared->lock);
        int ready = epoll_wait(shared->epoll, events, 64, timeout < 0 ? 1000 : (int)timeout);
        int running;
        pthread_mutex_lock(&shared->lock);
        if (ready <= 0) curl_multi_socket_action(shared->multi, CURL_SOCKET_TIMEOUT, 0, &running);
        for (int i = 0; i < ready; i++) {
            if (events[i].data.fd == shared->wake) {
                uint64_t value;
                (void)!read(shared->wake, &value, sizeof(value));
                continue;
            }
            int mask = 0;
            if (events[i].events & EPOLLIN) mask |= CURL_CSELECT_IN;
            if (events[i].events & EPOLLOUT) mask |= CURL_CSELECT_OUT;
            if (events[i].events & (EPOLLERR | EPOLLHUP)) mask |= CURL_CSELECT_ERR;
            curl_multi_socket_action(shared->multi, events[i].data.fd, mask, &running);
        }
        int count = collect(shared, finished, statuses, 64);
        pthread_mutex_unlock(&shared->lock);
        report(shared, finished, statuses, count);
    }
}
