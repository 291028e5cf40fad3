// What the engine's wait set knows of the sockets a path set opened, by descriptor number: the
// wait set's socket callback leaves a connection curl pooled in the epoll set ("parked") instead
// of taking it out, so that the connection's next transfer, which usually wants the same
// readiness, costs no change to the set. Only sockets opened through the path set are parked:
// their close comes through it too (CURLOPT_CLOSESOCKETFUNCTION), which forgets them, so a
// descriptor number a new socket takes is never mistaken for the parked one (the kernel drops a
// closed socket from the epoll set by itself). Used under the engine's lock, like curl.
#ifndef PATHSOCKETPARKING_H
#define PATHSOCKETPARKING_H

#include "CCurlShimPath.h"
#include <stdint.h>

#pragma clang assume_nonnull begin

/// Notes that the epoll set watches `fd` for `events`, tagged with the multi handle `route`
/// (ignored for a socket the set did not open).
void afc_path_socket_watched(afc_path_sockets *sockets, int fd, uint32_t events, uint32_t route);

/// curl has no use for `fd` now: 1 when it stays in the epoll set, parked (a socket the set
/// opened and still watched for `route`), 0 when the caller must take it out.
int afc_path_socket_park(afc_path_sockets *sockets, int fd, uint32_t route);

/// Takes `fd` out of the parked sockets of `route`: the events the epoll set watches it for, or
/// -1 when it was not parked there.
int64_t afc_path_socket_unpark(afc_path_sockets *sockets, int fd, uint32_t route);

#pragma clang assume_nonnull end

#endif
