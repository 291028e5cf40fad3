#define _GNU_SOURCE
#include "CCurlShimThread.h"

#include <sched.h>
#include <sys/prctl.h>

void afc_name_current_thread(const char *name) {
    // prctl is variadic: Swift cannot call it. It copies at most 15 bytes and a terminator.
    prctl(PR_SET_NAME, name, 0, 0, 0);
}

int afc_current_cpu(void) {
    // glibc declares sched_getcpu only under _GNU_SOURCE, which Swift's Glibc module leaves out.
    return sched_getcpu();
}
