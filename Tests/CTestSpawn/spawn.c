// The tests' way to run a program: posix_spawn, with the GNU file actions (close every other
// descriptor, change directory) that Swift's Glibc module does not expose.
#define _GNU_SOURCE
#include "CTestSpawn.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>

pid_t afts_spawn(const char *path, char *const argv[], char *const envp[], const char *directory,
                 int input, int output, int errors) {
    posix_spawn_file_actions_t actions;
    int error = posix_spawn_file_actions_init(&actions);
    if (error != 0) {
        errno = error;
        return -1;
    }
    error = posix_spawn_file_actions_adddup2(&actions, input, 0);
    if (error == 0) error = posix_spawn_file_actions_adddup2(&actions, output, 1);
    if (error == 0) error = posix_spawn_file_actions_adddup2(&actions, errors, 2);
    if (error == 0) error = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    if (error == 0 && directory != NULL) error = posix_spawn_file_actions_addchdir_np(&actions, directory);
    // The child starts with no signal blocked and SIGTERM and SIGINT at their defaults, whatever
    // the spawning thread had (dispatch threads block SIGTERM once a signal source traps it).
    posix_spawnattr_t attributes;
    int attributesMade = error == 0 && (error = posix_spawnattr_init(&attributes)) == 0;
    if (attributesMade) {
        sigset_t none, defaults;
        sigemptyset(&none);
        sigemptyset(&defaults);
        sigaddset(&defaults, SIGTERM);
        sigaddset(&defaults, SIGINT);
        error = posix_spawnattr_setsigmask(&attributes, &none);
        if (error == 0) error = posix_spawnattr_setsigdefault(&attributes, &defaults);
        if (error == 0) error = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    }
    pid_t pid = -1;
    if (error == 0) error = posix_spawn(&pid, path, &actions, &attributes, argv, envp);
    if (attributesMade) posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    if (error != 0) {
        errno = error;
        return -1;
    }
    return pid;
}
