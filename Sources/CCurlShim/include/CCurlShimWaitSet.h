// Where the engine thread waits: one epoll set holding an eventfd (a command for the engine), a
// timerfd (a deadline another thread set), the descriptors the engine watches itself (the
// network monitor), and every socket curl wants watched in any of the engine's multi handles:
// curl's socket callback adds, changes and removes them (curl's socket interface), each tagged
// with its multi handle's index, so a wake-up hands curl only the sockets that are ready. No
// limit on descriptor numbers, unlike curl_multi_fdset. Other threads may call curl (and so
// change the set) while the engine waits in it.
#ifndef CCURLSHIMWAITSET_H
#define CCURLSHIMWAITSET_H

#include <curl/curl.h>
#include <stdint.h>

#pragma clang assume_nonnull begin

/// The tag of the engine's own descriptors (eventfd, timerfd, watched inputs) in `afc_ready`.
#define AFC_WAIT_OWN UINT32_MAX

typedef struct afc_wait_set {
    int epoll_fd;
    int event_fd;
    int timer_fd;
} afc_wait_set;

/// One ready descriptor: the index of the multi handle whose socket it is (AFC_WAIT_OWN for the
/// engine's own), the descriptor, and what it is ready for as CURL_CSELECT_* bits.
typedef struct afc_ready {
    uint32_t multi;
    int fd;
    int what;
} afc_ready;

/// Opens the epoll set, its eventfd and its timerfd; 0 on success, else -1 with errno set and
/// nothing left open.
int afc_wait_open(afc_wait_set *set);
/// Closes all three; after every multi handle routed here is cleaned up.
void afc_wait_close(const afc_wait_set *set);
/// Waits until a descriptor is ready or `timeout_ms` passed (0: do not wait); fills `ready` with
/// up to `capacity` entries and returns how many (0 on timeout, interruption or error).
int afc_wait(int epoll_fd, int timeout_ms, afc_ready *ready, int capacity);

/// Makes the set report `fd`'s input (level-triggered: it must be drained), or no longer.
void afc_wait_watch_input(int epoll_fd, int fd, int watched);
/// Signals the eventfd.
void afc_wait_signal(int event_fd);
/// Clears a signal (so it does not wake a later wait).
void afc_wait_clear_signal(int event_fd);
/// Arms the timer to fire once, `timeout_ms` (at least 1) from now.
void afc_wait_arm(int timer_fd, long timeout_ms);
/// Disarms the timer (so it does not wake a later wait).
void afc_wait_disarm(int timer_fd);

/// Where one multi handle's sockets go: the set, and the index their entries carry. Start it
/// zeroed but for the first three fields.
typedef struct afc_socket_route {
    CURLM *_Nullable multi;
    int epoll_fd;
    uint32_t index;
    /// The transfers whose new socket the set refused (no memory, or the per-user limit on
    /// watched descriptors), since the last `afc_wait_take_unwatched`: curl's socket callback
    /// cannot fail one transfer, so the engine ends them after curl returns. `unwatched_errno`
    /// says why (the last refusal's errno).
    CURL *_Nullable *_Nullable unwatched;
    int unwatched_count;
    int unwatched_capacity;
    int unwatched_errno;
} afc_socket_route;
/// Makes curl add `route->multi`'s sockets to the set, change what is watched on them and
/// remove them, as its socket callback says. `route` must outlive the multi handle.
void afc_wait_route_sockets(afc_socket_route *route);
/// Takes one of the transfers refused so far out of the route; NULL when none is left.
CURL *_Nullable afc_wait_take_unwatched(afc_socket_route *route);
/// Drops `easy` from the refused transfers: it leaves the multi handle (its handle may be
/// reused for another transfer).
void afc_wait_forget_unwatched(afc_socket_route *route, CURL *easy);
/// Frees what the route holds besides itself; after its multi handle is cleaned up.
void afc_wait_route_free(afc_socket_route *route);

#pragma clang assume_nonnull end

#endif
