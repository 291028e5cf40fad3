// What the engine's wait set knows of the sockets a path set opened, by descriptor number: the
// wait set's socket callback leaves such a socket in the epoll set ("parked") when curl stops
// watching it (a connection it pools, or one it is about to close) instead of taking it out, and
// changes its watch in place when curl wants it again. A parked socket's close comes through the
// path set (CURLOPT_CLOSESOCKETFUNCTION), which takes it out of the epoll set first. Used under the
// engine's lock, like curl.
#ifndef PATHSOCKETPARKING_H
#define PATHSOCKETPARKING_H

#include "CCurlShimPath.h"
#include <stdint.h>

#pragma clang assume_nonnull begin

/// Notes that the epoll set `epoll_fd` watches `fd` for `events`, tagged with the multi handle
/// `route` (ignored for a socket the set did not open).
void afc_path_socket_watched(afc_path_sockets *sockets, int fd, uint32_t events, uint32_t route, int epoll_fd);

/// curl has no use for `fd` now: 1 when it stays in the epoll set, parked (a socket the set
/// opened and still watched for `route`), 0 when the caller must take it out.
int afc_path_socket_park(afc_path_sockets *sockets, int fd, uint32_t route);

/// Takes `fd` out of the parked sockets of `route`: the events the epoll set watches it for, or
/// -1 when it was not parked there.
int64_t afc_path_socket_unpark(afc_path_sockets *sockets, int fd, uint32_t route);

#pragma clang assume_nonnull end

#endif
