#include "CNetlink.h"

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <sys/syscall.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/if.h>

static int open_socket(unsigned int groups) {
    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | (groups ? SOCK_NONBLOCK : 0), NETLINK_ROUTE);
    if (fd < 0) return -1;
    struct sockaddr_nl local = {.nl_family = AF_NETLINK, .nl_groups = groups};
    if (bind(fd, (struct sockaddr *)&local, sizeof(local)) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int afn_open_monitor(void) {
    return open_socket(RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE);
}

int afn_open_query(void) {
    return open_socket(0);
}

int afn_current_namespace(void) {
    return open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
}

static int same_file(int first, int second) {
    struct stat a, b;
    return fstat(first, &a) == 0 && fstat(second, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int afn_open_in(int ns_fd, int monitor) {
    int current = afn_current_namespace();
    if (current < 0) return -1;
    if (same_file(current, ns_fd)) {
        close(current);
        return monitor ? afn_open_monitor() : afn_open_query();
    }
    if (setns(ns_fd, CLONE_NEWNET) != 0) {
        int saved = errno;
        close(current);
        errno = saved;
        return -1;
    }
    int fd = monitor ? afn_open_monitor() : afn_open_query();
    int saved = errno;
    if (setns(current, CLONE_NEWNET) != 0) abort();  // never leave a thread in another namespace
    close(current);
    errno = saved;
    return fd;
}

int afn_run_in(int ns_fd, void (*body)(void *), void *context) {
    int current = afn_current_namespace();
    if (current < 0) return -1;
    if (same_file(current, ns_fd)) {
        close(current);
        body(context);
        return 0;
    }
    if (setns(ns_fd, CLONE_NEWNET) != 0) {
        int saved = errno;
        close(current);
        errno = saved;
        return -1;
    }
    body(context);
    if (setns(current, CLONE_NEWNET) != 0) abort();  // never leave a thread in another namespace
    close(current);
    return 0;
}

int afn_enter_namespace(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    int result = setns(fd, CLONE_NEWNET);
    int saved = errno;
    close(fd);
    errno = saved;
    return result;
}

/// What a new thread needs before its body runs; lives on the starter's stack until `ready`.
struct afn_start {
    void *(*body)(void *);
    void *context;
    const char *name;
    int tid;
    sem_t ready;
};

static void *afn_thread_main(void *argument) {
    struct afn_start *start = argument;
    void *(*body)(void *) = start->body;
    void *context = start->context;
    // Named by itself before anything else: a thread it creates inherits the name.
    pthread_setname_np(pthread_self(), start->name);
    start->tid = (int)syscall(SYS_gettid);
    sem_post(&start->ready);
    return body(context);
}

int afn_start_thread(unsigned long *thread, int *tid, const char *name, void *(*body)(void *), void *context) {
    struct afn_start start = { .body = body, .context = context, .name = name, .tid = 0 };
    if (sem_init(&start.ready, 0, 0) != 0) return errno;
    pthread_t created;
    int result = pthread_create(&created, NULL, afn_thread_main, &start);
    if (result == 0) {
        while (sem_wait(&start.ready) != 0 && errno == EINTR) {}
        *thread = (unsigned long)created;
        *tid = start.tid;
    }
    sem_destroy(&start.ready);
    return result;
}

void afn_join_thread(unsigned long thread) {
    pthread_join((pthread_t)thread, NULL);
}

int afn_wake_pipe(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int afn_drain(int fd) {
    char buffer[16384];
    int count = 0;
    for (;;) {
        ssize_t size = recv(fd, buffer, sizeof(buffer), MSG_DONTWAIT);
        if (size > 0) {
            count++;
            continue;
        }
        if (size < 0 && errno == EINTR) continue;
        if (size < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return count;
        // ENOBUFS: the kernel dropped messages for us; they were only triggers anyway.
        if (size < 0 && errno == ENOBUFS) {
            count++;
            continue;
        }
        return size == 0 ? count : -1;
    }
}

int afn_wait(int fd, int wake_fd) {
    struct pollfd fds[2] = {{.fd = fd, .events = POLLIN}, {.fd = wake_fd, .events = POLLIN}};
    for (;;) {
        int ready = poll(fds, 2, -1);
        if (ready < 0 && errno == EINTR) continue;
        if (ready < 0) return -1;
        return (fds[0].revents & (POLLIN | POLLERR)) ? 1 : 0;
    }
}

/// Sends `request` and reads the one answer (or error) with its sequence number into `answer`.
static ssize_t ask(int fd, struct nlmsghdr *request, char *answer, size_t capacity) {
    static unsigned int sequence;
    request->nlmsg_seq = __atomic_add_fetch(&sequence, 1, __ATOMIC_RELAXED);
    struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
    if (sendto(fd, request, request->nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0) return -1;
    for (;;) {
        ssize_t size = recv(fd, answer, capacity, 0);
        if (size < 0 && errno == EINTR) continue;
        if (size < 0) return -1;
        struct nlmsghdr *header = (struct nlmsghdr *)answer;
        if (!NLMSG_OK(header, (size_t)size)) {
            errno = EBADMSG;
            return -1;
        }
        if (header->nlmsg_seq != request->nlmsg_seq) continue;  // a stale answer to an earlier question
        return size;
    }
}

/// The first message of an answer of `size` bytes, or NULL (errno EBADMSG) when it does not fit.
static const struct nlmsghdr *first_message(const void *answer, size_t size) {
    const struct nlmsghdr *header = answer;
    if (size < NLMSG_HDRLEN || !NLMSG_OK(header, size)) {
        errno = EBADMSG;
        return NULL;
    }
    return header;
}

/// The error a NLMSG_ERROR answer carries (0 for an acknowledgement, -EBADMSG when it is too
/// short to carry one), or 1 for a data answer.
static int answer_error(const struct nlmsghdr *header) {
    if (header->nlmsg_type != NLMSG_ERROR) return 1;
    if (header->nlmsg_len < NLMSG_LENGTH(sizeof(struct nlmsgerr))) return -EBADMSG;
    const struct nlmsgerr *error = NLMSG_DATA(header);
    return error->error;
}

int afn_parse_route_answer(const void *answer, size_t size) {
    const struct nlmsghdr *header = first_message(answer, size);
    if (!header) return -1;
    int error = answer_error(header);
    if (error == -ENETUNREACH || error == -EHOSTUNREACH || error == -EACCES || error == -EPERM ||
        error == -EINVAL || error == -ENETDOWN) {
        return 0;
    }
    if (error <= 0) {
        errno = error < 0 ? -error : EBADMSG;
        return -1;
    }
    if (header->nlmsg_len < NLMSG_LENGTH(sizeof(struct rtmsg))) {
        errno = EBADMSG;
        return -1;
    }
    const struct rtmsg *route = NLMSG_DATA(header);
    if (route->rtm_type != RTN_UNICAST && route->rtm_type != RTN_LOCAL) return 0;
    int attributes_length = (int)RTM_PAYLOAD(header);
    for (const struct rtattr *attribute = RTM_RTA(route); RTA_OK(attribute, attributes_length);
         attribute = RTA_NEXT(attribute, attributes_length)) {
        if (attribute->rta_type == RTA_OIF && RTA_PAYLOAD(attribute) >= sizeof(int)) {
            int index;
            memcpy(&index, RTA_DATA(attribute), sizeof(index));
            return index > 0 ? index : 0;
        }
    }
    return 0;
}

int afn_parse_link_answer(const void *answer, size_t size, afn_link *link) {
    const struct nlmsghdr *header = first_message(answer, size);
    if (!header) return -1;
    int error = answer_error(header);
    if (error == -ENODEV) return 0;
    if (error <= 0) {
        errno = error < 0 ? -error : EBADMSG;
        return -1;
    }
    if (header->nlmsg_len < NLMSG_LENGTH(sizeof(struct ifinfomsg))) {
        errno = EBADMSG;
        return -1;
    }
    const struct ifinfomsg *info = NLMSG_DATA(header);
    memset(link, 0, sizeof(*link));
    link->flags = info->ifi_flags;
    link->type = info->ifi_type;
    int attributes_length = (int)IFLA_PAYLOAD(header);
    for (const struct rtattr *attribute = IFLA_RTA(info); RTA_OK(attribute, attributes_length);
         attribute = RTA_NEXT(attribute, attributes_length)) {
        size_t payload = RTA_PAYLOAD(attribute);
        if (attribute->rta_type == IFLA_IFNAME) {
            size_t count = payload < sizeof(link->name) - 1 ? payload : sizeof(link->name) - 1;
            memcpy(link->name, RTA_DATA(attribute), count);
            link->name[count] = 0;
        } else if (attribute->rta_type == IFLA_OPERSTATE && payload >= 1) {
            link->operstate = *(const unsigned char *)RTA_DATA(attribute);
        }
    }
    return 1;
}

int afn_route_interface(int fd, int family, const unsigned char *address) {
    size_t length = family == AF_INET ? 4 : 16;
    struct {
        struct nlmsghdr header;
        struct rtmsg route;
        char attributes[64];
    } request;
    memset(&request, 0, sizeof(request));
    request.header.nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg));
    request.header.nlmsg_type = RTM_GETROUTE;
    request.header.nlmsg_flags = NLM_F_REQUEST;
    request.route.rtm_family = (unsigned char)family;
    request.route.rtm_dst_len = (unsigned char)(length * 8);
    struct rtattr *destination = (struct rtattr *)((char *)&request + NLMSG_ALIGN(request.header.nlmsg_len));
    destination->rta_type = RTA_DST;
    destination->rta_len = RTA_LENGTH(length);
    memcpy(RTA_DATA(destination), address, length);
    request.header.nlmsg_len = NLMSG_ALIGN(request.header.nlmsg_len) + RTA_ALIGN(destination->rta_len);

    union {
        struct nlmsghdr header;
        char bytes[8192];
    } answer;
    ssize_t size = ask(fd, &request.header, answer.bytes, sizeof(answer));
    if (size < 0) return -1;
    return afn_parse_route_answer(&answer, (size_t)size);
}

int afn_link_info(int fd, int index, afn_link *link) {
    struct {
        struct nlmsghdr header;
        struct ifinfomsg info;
    } request;
    memset(&request, 0, sizeof(request));
    request.header.nlmsg_len = NLMSG_LENGTH(sizeof(struct ifinfomsg));
    request.header.nlmsg_type = RTM_GETLINK;
    request.header.nlmsg_flags = NLM_F_REQUEST;
    request.info.ifi_family = AF_UNSPEC;
    request.info.ifi_index = index;

    union {
        struct nlmsghdr header;
        char bytes[16384];
    } answer;
    ssize_t size = ask(fd, &request.header, answer.bytes, sizeof(answer));
    if (size < 0) return -1;
    return afn_parse_link_answer(&answer, (size_t)size, link);
}
