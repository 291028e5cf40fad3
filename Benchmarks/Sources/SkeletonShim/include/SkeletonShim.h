// What skeleton-bench needs from libcurl that Swift cannot call (variadic setopt/getinfo).
#ifndef SKELETON_SHIM_H
#define SKELETON_SHIM_H

#include <curl/curl.h>
#include <stddef.h>

/// One reusable transfer: its easy handle and the raw header lines of its last response.
typedef struct {
    CURL *easy;
    char headers[4096];
    size_t headersLength;
    size_t bodyBytes;
    /// The body of the last response ("+contract" shapes only, up to its size).
    char body[4096];
    size_t bodyLength;
    struct curl_slist *headerList;
    /// The request the transfer is for ("+contract" shapes), retained.
    void *owner;
    /// Where the task awaiting the transfer waits ("+await" shapes), retained.
    void *waiter;
} skeleton_transfer;

/// A multi handle set up as curl-multi-bench sets its own.
CURLM *skeleton_multi(long inflight);
/// Sets up `transfer` for GETs of `url` as curl-multi-bench does; `collectHeaders`: also keep
/// the response's header lines. Returns 0 on success.
int skeleton_transfer_init(skeleton_transfer *transfer, const char *url, const char *cafile, int collectHeaders);
/// Also sends `lines` as request headers and keeps each response's body in `body` (the
/// "+contract" shapes). Returns 0 on success.
int skeleton_transfer_keep_contract(skeleton_transfer *transfer, const char *const *lines, int count);
/// Whether `message` says a transfer finished; if so, which and how.
int skeleton_done(CURLMsg *message, CURL **easy, CURLcode *result);
/// The finished transfer's status code.
long skeleton_status(CURL *easy);
/// The finished transfer's `skeleton_transfer`.
skeleton_transfer *skeleton_transfer_of(CURL *easy);

#endif

/// A multi handle shared under a mutex: any thread starts a transfer by driving curl itself
/// (so the request goes out on that thread), and one thread waits in epoll for responses.
typedef struct skeleton_shared skeleton_shared;
typedef void (*skeleton_done_callback)(void *context, skeleton_transfer *transfer, long status);

skeleton_shared *skeleton_shared_create(long inflight, skeleton_done_callback done, void *context);
/// Adds `transfer` and drives curl until it waits for the network; on the caller's thread.
void skeleton_shared_start(skeleton_shared *shared, skeleton_transfer *transfer);
/// Waits for sockets and timeouts and reports finished transfers; never returns.
void skeleton_shared_run(skeleton_shared *shared);
