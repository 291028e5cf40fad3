#include "CCurlShimWaitSet.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

static uint64_t own_tag(int fd) { return ((uint64_t)AFC_WAIT_OWN << 32) | (uint32_t)fd; }

int afc_wait_open(afc_wait_set *set) {
    int epoll = epoll_create1(EPOLL_CLOEXEC);
    if (epoll < 0) return -1;
    int event = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    int timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
    struct epoll_event wake = {.events = EPOLLIN, .data.u64 = own_tag(event)};
    struct epoll_event due = {.events = EPOLLIN, .data.u64 = own_tag(timer)};
    if (event < 0 || timer < 0 || epoll_ctl(epoll, EPOLL_CTL_ADD, event, &wake) != 0
        || epoll_ctl(epoll, EPOLL_CTL_ADD, timer, &due) != 0) {
        int failure = errno;
        if (event >= 0) close(event);
        if (timer >= 0) close(timer);
        close(epoll);
        errno = failure;
        return -1;
    }
    set->epoll_fd = epoll;
    set->event_fd = event;
    set->timer_fd = timer;
    return 0;
}

void afc_wait_close(const afc_wait_set *set) {
    close(set->timer_fd);
    close(set->event_fd);
    close(set->epoll_fd);
}

int afc_wait(int epoll_fd, int timeout_ms, afc_ready *ready, int capacity) {
    struct epoll_event events[256];
    if (capacity > 256) capacity = 256;
    int count = epoll_wait(epoll_fd, events, capacity, timeout_ms);
    if (count < 0) return 0;
    for (int index = 0; index < count; index++) {
        uint32_t what = events[index].events;
        ready[index].multi = (uint32_t)(events[index].data.u64 >> 32);
        ready[index].fd = (int)(uint32_t)events[index].data.u64;
        ready[index].what = (what & EPOLLIN ? CURL_CSELECT_IN : 0) | (what & EPOLLOUT ? CURL_CSELECT_OUT : 0)
                            | (what & (EPOLLERR | EPOLLHUP) ? CURL_CSELECT_ERR : 0);
    }
    return count;
}

void afc_wait_watch_input(int epoll_fd, int fd, int watched) {
    struct epoll_event interest = {.events = EPOLLIN, .data.u64 = own_tag(fd)};
    epoll_ctl(epoll_fd, watched ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, fd, &interest);
}

void afc_wait_signal(int event_fd) {
    uint64_t one = 1;
    (void)!write(event_fd, &one, sizeof(one));
}

void afc_wait_clear_signal(int event_fd) {
    uint64_t count;
    (void)!read(event_fd, &count, sizeof(count));
}

void afc_wait_arm(int timer_fd, long timeout_ms) {
    if (timeout_ms < 1) timeout_ms = 1;
    struct itimerspec due = {.it_value = {.tv_sec = timeout_ms / 1000, .tv_nsec = (timeout_ms % 1000) * 1000000}};
    timerfd_settime(timer_fd, 0, &due, NULL);
}

void afc_wait_disarm(int timer_fd) {
    struct itimerspec off = {0};
    timerfd_settime(timer_fd, 0, &off, NULL);
}

// Keeps `easy` for the engine to end. Returning -1 would make curl fail every transfer of the
// multi handle, not just this one.
static void note_unwatched(afc_socket_route *route, CURL *easy, int error) {
    route->unwatched_errno = error;
    for (int index = 0; index < route->unwatched_count; index++) {
        if (route->unwatched[index] == easy) return;
    }
    if (route->unwatched_count == route->unwatched_capacity) {
        int capacity = route->unwatched_capacity ? route->unwatched_capacity * 2 : 8;
        CURL **grown = realloc(route->unwatched, sizeof(CURL *) * (size_t)capacity);
        if (!grown) return;  // left to its timeout: no memory to remember it
        route->unwatched = grown;
        route->unwatched_capacity = capacity;
    }
    route->unwatched[route->unwatched_count++] = easy;
}

// curl's socket callback. `known` (curl's per-socket pointer, set with curl_multi_assign) marks a
// socket already in the set. A socket curl wants nothing from is taken out of the set: epoll
// reports a hang-up even without interest, and a paused transfer's socket would wake the engine
// over and over.
static int route_socket(CURL *easy, curl_socket_t socket, int what, void *context, void *known) {
    afc_socket_route *route = context;
    if (what == CURL_POLL_REMOVE || what == CURL_POLL_NONE) {
        if (known) {
            epoll_ctl(route->epoll_fd, EPOLL_CTL_DEL, socket, NULL);
            if (what == CURL_POLL_NONE) curl_multi_assign(route->multi, socket, NULL);
        }
        return 0;
    }
    struct epoll_event interest = {.events = 0, .data.u64 = ((uint64_t)route->index << 32) | (uint32_t)socket};
    if (what & CURL_POLL_IN) interest.events |= EPOLLIN;
    if (what & CURL_POLL_OUT) interest.events |= EPOLLOUT;
    // A socket curl still knows may have been closed and its number reused: then it is added.
    if (known && epoll_ctl(route->epoll_fd, EPOLL_CTL_MOD, socket, &interest) == 0) return 0;
    if (epoll_ctl(route->epoll_fd, EPOLL_CTL_ADD, socket, &interest) != 0) {
        if (errno == EEXIST) {
            epoll_ctl(route->epoll_fd, EPOLL_CTL_MOD, socket, &interest);
        } else {
            note_unwatched(route, easy, errno);
            return 0;
        }
    }
    if (!known) curl_multi_assign(route->multi, socket, route);
    return 0;
}

CURL *afc_wait_take_unwatched(afc_socket_route *route) {
    return route->unwatched_count > 0 ? route->unwatched[--route->unwatched_count] : NULL;
}

void afc_wait_forget_unwatched(afc_socket_route *route, CURL *easy) {
    for (int index = 0; index < route->unwatched_count; index++) {
        if (route->unwatched[index] == easy) {
            route->unwatched[index] = route->unwatched[--route->unwatched_count];
            return;
        }
    }
}

void afc_wait_route_free(afc_socket_route *route) {
    free(route->unwatched);
    route->unwatched = NULL;
    route->unwatched_count = route->unwatched_capacity = 0;
}

void afc_wait_route_sockets(afc_socket_route *route) {
    curl_multi_setopt(route->multi, CURLMOPT_SOCKETFUNCTION, route_socket);
    curl_multi_setopt(route->multi, CURLMOPT_SOCKETDATA, route);
}
