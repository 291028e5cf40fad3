#include "result.h"

#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

double bench_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

size_t bench_discard(char *data, size_t size, size_t count, void *context) {
    (void)data;
    *(size_t *)context += size * count;
    return size * count;
}

void bench_print_result(long requests, long failures, double seconds, long connections, long long bytes) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    double cpu = (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec / 1e6 +
                 (double)usage.ru_stime.tv_sec + (double)usage.ru_stime.tv_usec / 1e6;
    // Printed as soon as the work ends: it started `seconds` before now.
    printf("{\"requests\":%ld,\"failures\":%ld,\"seconds\":%.6f,\"cpuSeconds\":%.6f,"
           "\"maxRSSKiB\":%ld,\"connections\":%ld,\"bytes\":%lld,\"startedAt\":%.6f}\n",
           requests, failures, seconds, cpu, usage.ru_maxrss, connections, bytes, bench_now() - seconds);
}
