#include "CCurlShimPark.h"

#include <errno.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

int afc_park_open(int *epoll_fd, int *event_fd, int *timer_fd) {
    int epoll = epoll_create1(EPOLL_CLOEXEC);
    if (epoll < 0) return -1;
    int event = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    int timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
    struct epoll_event wake = {.events = EPOLLIN, .data.fd = event};
    struct epoll_event due = {.events = EPOLLIN, .data.fd = timer};
    if (event < 0 || timer < 0 || epoll_ctl(epoll, EPOLL_CTL_ADD, event, &wake) != 0
        || epoll_ctl(epoll, EPOLL_CTL_ADD, timer, &due) != 0) {
        if (event >= 0) close(event);
        if (timer >= 0) close(timer);
        close(epoll);
        return -1;
    }
    *epoll_fd = epoll;
    *event_fd = event;
    *timer_fd = timer;
    return 0;
}

void afc_park_close(int epoll_fd, int event_fd, int timer_fd) {
    close(timer_fd);
    close(event_fd);
    close(epoll_fd);
}

int afc_park_wait(int epoll_fd, int timeout_ms, int flag_fd) {
    struct epoll_event ready[8];
    int count;
    while ((count = epoll_wait(epoll_fd, ready, 8, timeout_ms)) < 0 && errno == EINTR) {}
    for (int index = 0; index < count; index++) {
        if (flag_fd >= 0 && ready[index].data.fd == flag_fd) return 1;
    }
    return 0;
}

int afc_park_add(int epoll_fd, int fd) {
    struct epoll_event interest = {.events = EPOLLIN, .data.fd = fd};
    return epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &interest);
}

void afc_park_clear_signal(int event_fd) {
    uint64_t count;
    (void)!read(event_fd, &count, sizeof(count));
}

void afc_park_disarm(int timer_fd) {
    struct itimerspec off = {0};
    timerfd_settime(timer_fd, 0, &off, NULL);
}

void afc_park_arm(int timer_fd, long timeout_ms) {
    if (timeout_ms < 1) timeout_ms = 1;
    struct itimerspec due = {.it_value = {.tv_sec = timeout_ms / 1000, .tv_nsec = (timeout_ms % 1000) * 1000000}};
    timerfd_settime(timer_fd, 0, &due, NULL);
}

void afc_park_signal(int event_fd) {
    uint64_t one = 1;
    (void)!write(event_fd, &one, sizeof(one));
}

static int note_socket(CURL *easy, curl_socket_t socket, int what, void *userp, void *socketp) {
    (void)easy;
    (void)socketp;
    afc_socket_note *note = userp;
    note->count++;
    note->socket = socket;
    note->what = what;
    return 0;
}

void afc_park_note_sockets(CURLM *multi, afc_socket_note *note) {
    curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, note_socket);
    curl_multi_setopt(multi, CURLMOPT_SOCKETDATA, note);
}

// curl_multi_socket_all is curl_multi_perform followed by a report of every handle's sockets
// to the socket callback; curl_multi_perform alone reports none.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
CURLMcode afc_park_perform(CURLM *multi, afc_socket_note *note, int *running) {
    note->count = 0;
    return curl_multi_socket_all(multi, running);
}
#pragma clang diagnostic pop

int afc_park_watch(const afc_socket_note *note, int epoll_fd) {
    if (note->count != 1 || note->what == CURL_POLL_REMOVE || note->what == CURL_POLL_NONE) return -1;
    uint32_t events = EPOLLONESHOT;
    if (note->what & CURL_POLL_IN) events |= EPOLLIN;
    if (note->what & CURL_POLL_OUT) events |= EPOLLOUT;
    struct epoll_event interest = {.events = events, .data.fd = note->socket};
    if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, note->socket, &interest) != 0) return -1;
    return note->socket;
}

void afc_park_unwatch(int epoll_fd, int fd) {
    epoll_ctl(epoll_fd, EPOLL_CTL_DEL, fd, NULL);
}
