#ifndef CURL_MULTI_BENCH_TALLY_H
#define CURL_MULTI_BENCH_TALLY_H

#include <curl/curl.h>
#include <stddef.h>

/// The request loops' counts: COUNT requests in all, each one started, finished, failed (an
/// error or a status other than 200), and the connections they opened.
struct bench_tally {
    long count, started, finished, failures, connections;
    /// Body bytes received (dropped as they arrive).
    size_t bytes;
};

/// An easy handle for a GET of `url` whose body is counted into `tally` and dropped.
CURL *bench_easy(const char *url, struct bench_tally *tally);

/// Takes the transfers `multi` finished: counts them, and starts each handle again on `multi`
/// while requests remain to be started.
void bench_take_finished(CURLM *multi, struct bench_tally *tally);

#endif
