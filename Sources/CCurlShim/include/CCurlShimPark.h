// Where the engine thread waits when no transfer runs: an epoll set with an eventfd (the
// wake-up), a timerfd (a deadline set by another thread) and, once a caller has handed a
// transfer to curl itself, the socket curl waits on for it (as curl reports it to its socket
// callback: no limit on descriptor numbers, unlike curl_multi_fdset). Waiting there, outside
// curl, leaves the multi handle free for that caller.
#ifndef CCURLSHIMPARK_H
#define CCURLSHIMPARK_H

#include <curl/curl.h>

#pragma clang assume_nonnull begin

/// Opens the epoll set, its eventfd and its timerfd; 0 on success, -1 on failure (nothing left
/// open).
int afc_park_open(int *epoll_fd, int *event_fd, int *timer_fd);
/// Closes all three.
void afc_park_close(int epoll_fd, int event_fd, int timer_fd);
/// Waits until the eventfd is signalled, the timer fires, a watched socket is ready, or
/// `timeout_ms` passed (-1: no limit); 1 when `flag_fd` (added with afc_park_add; -1: none) was
/// among the ready descriptors, else 0.
int afc_park_wait(int epoll_fd, int timeout_ms, int flag_fd);

/// Watches `fd` for input for as long as the set lives (level-triggered: it must be drained).
int afc_park_add(int epoll_fd, int fd);
/// Clears a signal (so it does not wake a later wait).
void afc_park_clear_signal(int event_fd);
/// Disarms the timer (so it does not wake a later wait).
void afc_park_disarm(int timer_fd);
/// Arms the timer to fire once, `timeout_ms` (at least 1) from now.
void afc_park_arm(int timer_fd, long timeout_ms);
/// Signals the eventfd.
void afc_park_signal(int event_fd);
/// What curl last told the socket callback: how many sockets since the count was cleared, and
/// the last one with what curl waits for on it (CURL_POLL_*).
typedef struct afc_socket_note {
    int count;
    curl_socket_t socket;
    int what;
} afc_socket_note;
/// Makes `multi` report its sockets to `note` (it must outlive the multi handle).
void afc_park_note_sockets(CURLM *multi, afc_socket_note *note);
/// curl_multi_perform, then every handle's sockets reported to `note` (cleared first).
CURLMcode afc_park_perform(CURLM *multi, afc_socket_note *note, int *running);
/// Watches, once, the socket `note` holds when curl reported exactly one since it was cleared,
/// waiting to read or write on it; returns it, else -1 with nothing watched (curl's own wait
/// must watch the others).
int afc_park_watch(const afc_socket_note *note, int epoll_fd);
/// Stops watching `fd`.
void afc_park_unwatch(int epoll_fd, int fd);

#pragma clang assume_nonnull end

#endif
