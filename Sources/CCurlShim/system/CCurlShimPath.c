#include "CCurlShimPath.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// MARK: Paths

static int is_loopback(const struct sockaddr *address) {
    if (address->sa_family == AF_INET) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)address;
        return (ntohl(v4->sin_addr.s_addr) >> 24) == 127;
    }
    if (address->sa_family == AF_INET6) {
        const struct in6_addr *v6 = &((const struct sockaddr_in6 *)address)->sin6_addr;
        if (IN6_IS_ADDR_LOOPBACK(v6)) return 1;
        return IN6_IS_ADDR_V4MAPPED(v6) && v6->s6_addr[12] == 127;
    }
    return 0;
}

static int is_unspecified(const struct sockaddr *address) {
    if (address->sa_family == AF_INET) return ((const struct sockaddr_in *)address)->sin_addr.s_addr == INADDR_ANY;
    if (address->sa_family == AF_INET6) return IN6_IS_ADDR_UNSPECIFIED(&((const struct sockaddr_in6 *)address)->sin6_addr);
    return 1;
}

static int same_host(const struct sockaddr *a, const struct sockaddr *b) {
    if (a->sa_family != b->sa_family) return 0;
    if (a->sa_family == AF_INET)
        return ((const struct sockaddr_in *)a)->sin_addr.s_addr == ((const struct sockaddr_in *)b)->sin_addr.s_addr;
    if (a->sa_family == AF_INET6)
        return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr, &((const struct sockaddr_in6 *)b)->sin6_addr,
                      sizeof(struct in6_addr)) == 0;
    return 0;
}

/// The interface entry that holds `address`, or NULL.
static const struct ifaddrs *holder(const struct ifaddrs *interfaces, const struct sockaddr *address) {
    for (const struct ifaddrs *entry = interfaces; entry; entry = entry->ifa_next) {
        if (entry->ifa_addr && same_host(entry->ifa_addr, address)) return entry;
    }
    return NULL;
}

static int carries_traffic(const struct ifaddrs *entry) {
    // glibc gives an address's entry the flags of its interface: up, and running (carrier).
    return (entry->ifa_flags & IFF_UP) && (entry->ifa_flags & IFF_RUNNING);
}

static int usable_with(const struct ifaddrs *interfaces, const struct sockaddr *peer, socklen_t peer_length,
                       const struct sockaddr *local) {
    if (is_loopback(peer)) return 1;
    // Where a datagram to the peer would leave from now: connecting a UDP socket sends nothing.
    int probe = socket(peer->sa_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (probe < 0) return -1;
    struct sockaddr_storage source;
    socklen_t source_length = sizeof(source);
    int routed = connect(probe, peer, peer_length);
    int error = errno;
    int named = routed == 0 ? getsockname(probe, (struct sockaddr *)&source, &source_length) : -1;
    close(probe);
    if (routed != 0) {
        return error == ENETUNREACH || error == EHOSTUNREACH || error == ENETDOWN || error == EADDRNOTAVAIL ? 0 : -1;
    }
    if (named != 0) return -1;
    const struct ifaddrs *out = holder(interfaces, (struct sockaddr *)&source);
    if (!out) return -1;
    if (!carries_traffic(out)) return 0;
    if (!local || is_unspecified(local)) return 1;
    const struct ifaddrs *own = holder(interfaces, local);
    // The connection's address is gone, or the route to its peer now leaves another interface.
    if (!own || strcmp(own->ifa_name, out->ifa_name) != 0) return 0;
    return 1;
}

int afc_path_usable(const struct sockaddr *peer, socklen_t peer_length, const struct sockaddr *local) {
    if (is_loopback(peer)) return 1;
    struct ifaddrs *interfaces = NULL;
    if (getifaddrs(&interfaces) != 0) return -1;
    int usable = usable_with(interfaces, peer, peer_length, local);
    freeifaddrs(interfaces);
    return usable;
}

int afc_path_any_route(void) {
    // Documentation addresses: only a default (or covering) route reaches them.
    struct sockaddr_in v4 = {.sin_family = AF_INET, .sin_port = htons(9)};
    struct sockaddr_in6 v6 = {.sin6_family = AF_INET6, .sin6_port = htons(9)};
    inet_pton(AF_INET, "198.51.100.1", &v4.sin_addr);
    inet_pton(AF_INET6, "2001:db8::1", &v6.sin6_addr);
    int first = afc_path_usable((struct sockaddr *)&v4, sizeof(v4), NULL);
    if (first == 1) return 1;
    int second = afc_path_usable((struct sockaddr *)&v6, sizeof(v6), NULL);
    if (second == 1) return 1;
    return first == -1 || second == -1 ? -1 : 0;
}

// MARK: Sockets

typedef struct {
    int fd;
    int exposed;
    int dropped;
    socklen_t peer_length;
    struct sockaddr_storage peer;
} entry;

struct afc_path_sockets {
    int follow;
    afc_keepalive keepalive;
    entry *entries;
    size_t count;
    size_t capacity;
    size_t exposed;
    unsigned long drops;
};

afc_path_sockets *afc_path_sockets_new(int follow, afc_keepalive keepalive) {
    afc_path_sockets *sockets = calloc(1, sizeof(afc_path_sockets));
    if (!sockets) return NULL;
    sockets->follow = follow;
    sockets->keepalive = keepalive;
    return sockets;
}

void afc_path_sockets_free(afc_path_sockets *sockets) {
    free(sockets->entries);
    free(sockets);
}

size_t afc_path_sockets_exposed(const afc_path_sockets *sockets) { return sockets->exposed; }

int afc_path_sockets_follow(const afc_path_sockets *sockets) { return sockets->follow; }

unsigned long afc_path_sockets_drops(const afc_path_sockets *sockets) { return sockets->drops; }

static void track(afc_path_sockets *sockets, int fd, int exposed, const struct sockaddr *peer, socklen_t length) {
    if (sockets->count == sockets->capacity) {
        size_t capacity = sockets->capacity ? sockets->capacity * 2 : 16;
        entry *grown = realloc(sockets->entries, capacity * sizeof(entry));
        if (!grown) return;  // left untracked: it closes normally, it is only not watched
        sockets->entries = grown;
        sockets->capacity = capacity;
    }
    entry *added = &sockets->entries[sockets->count++];
    memset(added, 0, sizeof(*added));
    added->fd = fd;
    added->exposed = exposed;
    if (length > sizeof(added->peer)) length = sizeof(added->peer);
    memcpy(&added->peer, peer, length);
    added->peer_length = length;
    if (exposed) sockets->exposed++;
}

static void untrack(afc_path_sockets *sockets, int fd) {
    for (size_t index = 0; index < sockets->count; index++) {
        if (sockets->entries[index].fd != fd) continue;
        if (sockets->entries[index].exposed) sockets->exposed--;
        sockets->entries[index] = sockets->entries[--sockets->count];
        return;
    }
}

static void set_keepalive(int fd, afc_keepalive keepalive) {
    if (keepalive.idle <= 0) return;
    int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on));
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &keepalive.idle, sizeof(keepalive.idle));
    if (keepalive.interval > 0) setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &keepalive.interval, sizeof(keepalive.interval));
    if (keepalive.count > 0) setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &keepalive.count, sizeof(keepalive.count));
}

static curl_socket_t open_socket(void *clientp, curlsocktype purpose, struct curl_sockaddr *address) {
    afc_socket_slot *slot = clientp;
    int inet = address->family == AF_INET || address->family == AF_INET6;
    afc_path_sockets *sockets = slot && purpose == CURLSOCKTYPE_IPCXN ? slot->sockets : NULL;
    int exposed = inet && !is_loopback(&address->addr);
    if (sockets && exposed && sockets->follow && afc_path_usable(&address->addr, address->addrlen, NULL) == 0) {
        slot->refused = 1;
        return CURL_SOCKET_BAD;
    }
    int fd = socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
    if (fd < 0) return CURL_SOCKET_BAD;
    if (!sockets) return fd;
    if (inet && address->socktype == SOCK_STREAM) set_keepalive(fd, sockets->keepalive);
    track(sockets, fd, exposed, &address->addr, address->addrlen);
    return fd;
}

static int close_socket(void *clientp, curl_socket_t fd) {
    if (clientp) untrack(clientp, fd);
    return close(fd);
}

CURLcode afc_easy_setopt_path_sockets(CURL *handle, afc_path_sockets *sockets) {
    CURLcode result = curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, open_socket);
    if (result == CURLE_OK) result = curl_easy_setopt(handle, CURLOPT_CLOSESOCKETFUNCTION, close_socket);
    if (result == CURLE_OK) result = curl_easy_setopt(handle, CURLOPT_CLOSESOCKETDATA, sockets);
    return result;
}

size_t afc_path_sockets_drop_dead(afc_path_sockets *sockets) {
    if (sockets->exposed == 0) return 0;
    struct ifaddrs *interfaces = NULL;
    if (getifaddrs(&interfaces) != 0) return 0;
    size_t dropped = 0;
    for (size_t index = 0; index < sockets->count; index++) {
        entry *socket_entry = &sockets->entries[index];
        if (!socket_entry->exposed || socket_entry->dropped) continue;
        struct sockaddr_storage local;
        socklen_t length = sizeof(local);
        if (getsockname(socket_entry->fd, (struct sockaddr *)&local, &length) != 0) continue;
        if (usable_with(interfaces, (struct sockaddr *)&socket_entry->peer, socket_entry->peer_length,
                        (struct sockaddr *)&local) != 0) continue;
        // Connecting to AF_UNSPEC dissolves the connection: the kernel resets it, and the next
        // read or write (or poll) reports ECONNRESET.
        struct sockaddr unspecified = {.sa_family = AF_UNSPEC};
        connect(socket_entry->fd, &unspecified, sizeof(unspecified));
        socket_entry->dropped = 1;
        sockets->drops++;
        dropped++;
    }
    freeifaddrs(interfaces);
    return dropped;
}
