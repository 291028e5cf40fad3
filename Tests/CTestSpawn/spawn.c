// The tests' way to run a program: posix_spawn, with the GNU file actions (close every other
// descriptor, change directory) that Swift's Glibc module does not expose.
#define _GNU_SOURCE
#include "CTestSpawn.h"

#include <errno.h>
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
    pid_t pid = -1;
    if (error == 0) error = posix_spawn(&pid, path, &actions, NULL, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    if (error != 0) {
        errno = error;
        return -1;
    }
    return pid;
}
