#include "CCurlShimPoller.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

enum { afc_poller_capacity = 64 };

struct afc_poller {
    CURLM *multi;
    int epoll;
    int wake;                 // eventfd in the epoll set: ends a wait
    int64_t curl_deadline;    // monotonic ns when curl wants its timer run; -1: none
    int64_t sleeping_until;   // monotonic ns the waiter looks again; -1: awake
    int ready;
    struct epoll_event events[afc_poller_capacity];
};

static int64_t now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

static int on_socket(CURL *easy, curl_socket_t socket, int what, void *userp, void *socketp) {
    (void)easy;
    (void)socketp;
    afc_poller *poller = userp;
    if (what == CURL_POLL_REMOVE) {
        epoll_ctl(poller->epoll, EPOLL_CTL_DEL, socket, NULL);
        return 0;
    }
    struct epoll_event event = {0};
    if (what & CURL_POLL_IN) event.events |= EPOLLIN;
    if (what & CURL_POLL_OUT) event.events |= EPOLLOUT;
    event.data.fd = socket;
    if (epoll_ctl(poller->epoll, EPOLL_CTL_MOD, socket, &event) != 0 && errno == ENOENT) {
        epoll_ctl(poller->epoll, EPOLL_CTL_ADD, socket, &event);
    }
    return 0;
}

static int on_timer(CURLM *multi, long timeout_ms, void *userp) {
    (void)multi;
    afc_poller *poller = userp;
    poller->curl_deadline = timeout_ms < 0 ? -1 : now_ns() + (int64_t)timeout_ms * 1000000;
    return 0;
}

afc_poller *afc_poller_create(CURLM *multi) {
    afc_poller *poller = calloc(1, sizeof(*poller));
    if (!poller) return NULL;
    poller->multi = multi;
    poller->curl_deadline = -1;
    poller->sleeping_until = -1;
    poller->epoll = epoll_create1(EPOLL_CLOEXEC);
    poller->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    struct epoll_event event = {.events = EPOLLIN, .data.fd = poller->wake};
    if (poller->epoll < 0 || poller->wake < 0 || epoll_ctl(poller->epoll, EPOLL_CTL_ADD, poller->wake, &event) != 0) {
        if (poller->epoll >= 0) close(poller->epoll);
        if (poller->wake >= 0) close(poller->wake);
        free(poller);
        return NULL;
    }
    curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, on_socket);
    curl_multi_setopt(multi, CURLMOPT_SOCKETDATA, poller);
    curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, on_timer);
    curl_multi_setopt(multi, CURLMOPT_TIMERDATA, poller);
    return poller;
}

void afc_poller_destroy(afc_poller *poller) {
    close(poller->epoll);
    close(poller->wake);
    free(poller);
}

int afc_poller_prepare_wait(afc_poller *poller, int cap_ms) {
    int64_t now = now_ns();
    int timeout = cap_ms;
    if (poller->curl_deadline >= 0) {
        int64_t left = poller->curl_deadline - now;
        int64_t left_ms = left <= 0 ? 0 : (left + 999999) / 1000000;
        if (left_ms < timeout) timeout = (int)left_ms;
    }
    poller->sleeping_until = now + (int64_t)timeout * 1000000;
    return timeout;
}

void afc_poller_wait(afc_poller *poller, int timeout_ms) {
    int ready = epoll_wait(poller->epoll, poller->events, afc_poller_capacity, timeout_ms);
    poller->ready = ready < 0 ? 0 : ready;
}

void afc_poller_run_due(afc_poller *poller) {
    if (poller->curl_deadline < 0 || poller->curl_deadline > now_ns()) return;
    int running;
    curl_multi_socket_action(poller->multi, CURL_SOCKET_TIMEOUT, 0, &running);
}

void afc_poller_act(afc_poller *poller) {
    poller->sleeping_until = -1;
    int running;
    for (int i = 0; i < poller->ready; i++) {
        struct epoll_event *event = &poller->events[i];
        if (event->data.fd == poller->wake) {
            uint64_t count;
            (void)!read(poller->wake, &count, sizeof(count));
            continue;
        }
        int mask = 0;
        if (event->events & EPOLLIN) mask |= CURL_CSELECT_IN;
        if (event->events & EPOLLOUT) mask |= CURL_CSELECT_OUT;
        if (event->events & (EPOLLERR | EPOLLHUP)) mask |= CURL_CSELECT_ERR;
        curl_multi_socket_action(poller->multi, event->data.fd, mask, &running);
    }
    poller->ready = 0;
    afc_poller_run_due(poller);
}

int afc_poller_waiter_is_late(const afc_poller *poller) {
    return poller->sleeping_until >= 0 && poller->curl_deadline >= 0 && poller->curl_deadline < poller->sleeping_until;
}

int afc_poller_waiter_sleeps(const afc_poller *poller) {
    return poller->sleeping_until >= 0;
}

void afc_poller_wake(afc_poller *poller) {
    uint64_t one = 1;
    (void)!write(poller->wake, &one, sizeof(one));
}
