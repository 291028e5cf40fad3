// rtnetlink for AFReachability: a socket that hears link, address and route changes, and the
// two questions asked after each one (which interface a route to an address leaves through,
// and what state that interface is in). Glibc does not expose these to Swift.
#ifndef CNETLINK_H
#define CNETLINK_H

#include <stddef.h>

#pragma clang assume_nonnull begin

/// What the kernel says of one interface.
typedef struct {
    /// IFF_* flags.
    unsigned int flags;
    /// ARPHRD_* hardware type.
    unsigned short type;
    /// IF_OPER_* state (RFC 2863).
    unsigned char operstate;
    char name[16];
} afn_link;

/// Flag bits of afn_link.flags that the reachability decision reads.
enum {
    AFN_IFF_UP = 0x1,
    AFN_IFF_LOOPBACK = 0x8,
    AFN_IFF_RUNNING = 0x40,
    AFN_IFF_LOWER_UP = 0x10000,
};

/// Hardware types the reachability decision reads.
enum {
    AFN_ARPHRD_PPP = 512,
};

/// A non-blocking, close-on-exec NETLINK_ROUTE socket subscribed to link, IPv4/IPv6 address and
/// IPv4/IPv6 route changes, in the calling thread's network namespace; -1 with errno on error.
int afn_open_monitor(void);

/// A NETLINK_ROUTE socket for the queries below, in the calling thread's network namespace.
int afn_open_query(void);

/// A descriptor of the calling thread's network namespace (close-on-exec), or -1 with errno.
int afn_current_namespace(void);

/// Runs afn_open_monitor (`monitor` != 0) or afn_open_query in the network namespace `ns_fd`
/// refers to: directly when the calling thread is in it, else by switching the thread into it
/// for the call (which needs CAP_SYS_ADMIN) and back.
int afn_open_in(int ns_fd, int monitor);

/// Runs `body(context)` with the calling thread in the network namespace `ns_fd` refers to:
/// directly when it is there, else switched into it for the call (which needs CAP_SYS_ADMIN)
/// and back. 0, or -1 with errno when it could not switch (`body` not run).
int afn_run_in(int ns_fd, void (*_Nonnull body)(void *_Nullable), void *_Nullable context);

/// Moves the calling thread into the network namespace at `path` (say /run/netns/NAME): 0, or
/// -1 with errno. For tests, which make their own namespaces.
int afn_enter_namespace(const char *path);

/// Starts a thread running `body(context)`, already named `name` (the kernel keeps 15 bytes)
/// when this returns; 0 with its id in `*thread` and its kernel thread id in `*tid`, else an
/// errno value.
int afn_start_thread(unsigned long *thread, int *tid, const char *name, void *_Nullable (*_Nonnull body)(void *_Nullable),
                     void *_Nullable context);

/// Waits until `thread` ended.
void afn_join_thread(unsigned long thread);

/// A close-on-exec pipe to wake a thread blocked in afn_wait: 0, or -1 with errno.
int afn_wake_pipe(int fds[_Nonnull 2]);

/// Reads and drops every pending message of a monitor socket; how many datagrams were read
/// (0: none pending), or -1 with errno.
int afn_drain(int fd);

/// Waits until `fd` or `wake_fd` is readable; 1 when `fd` is, 0 when only `wake_fd` is, -1 on
/// error. No timeout: nothing polls.
int afn_wait(int fd, int wake_fd);

/// The index of the interface a route to `address` (4 bytes for AF_INET, 16 for AF_INET6)
/// leaves through: > 0; 0 when there is no route (unreachable, prohibited); -1 with errno.
int afn_route_interface(int fd, int family, const unsigned char *address);

/// Fills `link` for interface `index`: 1; 0 when there is no such interface; -1 with errno.
int afn_link_info(int fd, int index, afn_link *link);

/// What an RTM_GETROUTE answer of `size` bytes (its first message; `answer` aligned for a
/// nlmsghdr) says, as afn_route_interface returns it. Malformed answers give -1 with EBADMSG.
int afn_parse_route_answer(const void *answer, size_t size);

/// What an RTM_GETLINK answer of `size` bytes says, as afn_link_info returns it (`link` filled
/// when 1). Malformed answers give -1 with EBADMSG.
int afn_parse_link_answer(const void *answer, size_t size, afn_link *link);

#pragma clang assume_nonnull end

#endif
