#include "CCurlShimThread.h"

#include <sys/prctl.h>

void afc_name_current_thread(const char *name) {
    // prctl is variadic: Swift cannot call it. It copies at most 15 bytes and a terminator.
    prctl(PR_SET_NAME, name, 0, 0, 0);
}
