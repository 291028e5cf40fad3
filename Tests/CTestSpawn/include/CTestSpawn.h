#ifndef CTESTSPAWN_H
#define CTESTSPAWN_H

#include <sys/types.h>

/// Starts the program at `path` with `argv` and `envp` (both NULL-terminated), in `directory`
/// (NULL: the caller's), its standard input, output and error being `input`, `output` and
/// `errors`; every other descriptor is closed in the child, which starts with no signal blocked
/// and SIGTERM and SIGINT at their default actions. Returns the child's pid, or -1 with
/// errno set.
pid_t afts_spawn(const char *path, char *const argv[], char *const envp[], const char *directory,
                 int input, int output, int errors);

/// Makes every later `epoll_ctl(EPOLL_CTL_ADD)` on the epoll set `epoll_fd` in this process, on
/// any thread, fail with `error` (a seccomp filter, which cannot be lifted): the fault of a
/// system out of epoll watches. Returns 0, or -1 with errno set. For a child process of the
/// tests only.
int afts_refuse_epoll_adds(int epoll_fd, int error);

#endif
