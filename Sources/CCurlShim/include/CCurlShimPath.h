// Connections that follow the host's network. The engine hears link, address and route changes
// on CNetlink's monitor socket (a trigger only: nothing in the messages is read), opens curl's sockets
// itself so that it knows each one and its peer, and after a change disconnects every socket
// whose path is gone (its local address removed, its interface down or without carrier, no
// route to its peer, or the route moved to another interface). curl then sees a reset
// connection: a transfer on it fails at once, a pooled one is not reused.
#ifndef CCURLSHIMPATH_H
#define CCURLSHIMPATH_H

#include <curl/curl.h>
#include <sys/socket.h>

#pragma clang assume_nonnull begin

/// The sockets a multi handle's connections use, with what each was opened to.
typedef struct afc_path_sockets afc_path_sockets;

/// TCP keep-alive for the sockets opened from now on: probes after `idle` seconds without
/// traffic, every `interval` seconds, `count` unanswered ones end the connection. Off when
/// `idle` is 0.
typedef struct afc_keepalive {
    int idle;
    int interval;
    int count;
} afc_keepalive;

/// An empty set; `follow` != 0 refuses to open a socket that has no usable path (see
/// afc_path_open_socket). NULL when out of memory.
afc_path_sockets *_Nullable afc_path_sockets_new(int follow, afc_keepalive keepalive);

/// Frees the set; after the multi handle is cleaned up (its connections close through it).
void afc_path_sockets_free(afc_path_sockets *sockets);

/// How many open sockets lead off this host (to a peer other than loopback): only those can
/// lose their path.
size_t afc_path_sockets_exposed(const afc_path_sockets *sockets);

/// Whether the set refuses sockets that have no usable path (see afc_path_sockets_new).
int afc_path_sockets_follow(const afc_path_sockets *sockets);

/// How many times afc_path_sockets_drop_dead disconnected a socket, in all.
unsigned long afc_path_sockets_drops(const afc_path_sockets *sockets);

/// Disconnects (a reset, as if the peer had sent one) every open socket whose path can no longer
/// carry it; how many it disconnected.
size_t afc_path_sockets_drop_dead(afc_path_sockets *sockets);

/// What a transfer hands its socket callback: the set, and whether a socket was refused for
/// want of a path.
typedef struct afc_socket_slot {
    afc_path_sockets *_Nullable sockets;
    int refused;
} afc_socket_slot;

/// Sets the socket callbacks on `handle`: sockets open through the slot given as
/// CURLOPT_OPENSOCKETDATA (per transfer), and close through `sockets`.
CURLcode afc_easy_setopt_path_sockets(CURL *handle, afc_path_sockets *sockets);

/// Whether a connection to `peer` from `local` (NULL: from the address the kernel would choose)
/// can work now: 1 yes, 0 no, -1 cannot tell. Loopback peers always can.
int afc_path_usable(const struct sockaddr *peer, socklen_t peer_length, const struct sockaddr *_Nullable local);

/// Whether this host has a usable route to the Internet at large (a default route through an
/// interface that is up with carrier), as afc_path_usable answers.
int afc_path_any_route(void);

#pragma clang assume_nonnull end

#endif
