#include "SkeletonShim.h"

#include <string.h>

static size_t count_body(char *data, size_t size, size_t count, void *context) {
    (void)data;
    ((skeleton_transfer *)context)->bodyBytes += size * count;
    return size * count;
}

static size_t keep_body(char *data, size_t size, size_t count, void *context) {
    skeleton_transfer *transfer = context;
    size_t length = size * count;
    transfer->bodyBytes += length;
    if (transfer->bodyLength + length <= sizeof(transfer->body)) {
        memcpy(transfer->body + transfer->bodyLength, data, length);
        transfer->bodyLength += length;
    }
    return length;
}

static size_t keep_header(char *data, size_t size, size_t count, void *context) {
    skeleton_transfer *transfer = context;
    size_t length = size * count;
    // A new response (status line) starts the list again.
    if (length >= 5 && memcmp(data, "HTTP/", 5) == 0) transfer->headersLength = 0;
    if (transfer->headersLength + length <= sizeof(transfer->headers)) {
        memcpy(transfer->headers + transfer->headersLength, data, length);
        transfer->headersLength += length;
    }
    return length;
}

CURLM *skeleton_multi(long inflight) {
    CURLM *multi = curl_multi_init();
    curl_multi_setopt(multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX);
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, inflight);
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, inflight);
    return multi;
}

int skeleton_transfer_init(skeleton_transfer *transfer, const char *url, const char *cafile, int collectHeaders) {
    memset(transfer, 0, sizeof(*transfer));
    CURL *easy = curl_easy_init();
    if (!easy) return 1;
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, count_body);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, transfer);
    curl_easy_setopt(easy, CURLOPT_PRIVATE, transfer);
    curl_easy_setopt(easy, CURLOPT_PIPEWAIT, 1L);
    curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
    if (cafile && cafile[0]) curl_easy_setopt(easy, CURLOPT_CAINFO, cafile);
    if (collectHeaders) {
        curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, keep_header);
        curl_easy_setopt(easy, CURLOPT_HEADERDATA, transfer);
    }
    transfer->easy = easy;
    return 0;
}

int skeleton_transfer_keep_contract(skeleton_transfer *transfer, const char *const *lines, int count) {
    for (int index = 0; index < count; index++) {
        struct curl_slist *list = curl_slist_append(transfer->headerList, lines[index]);
        if (!list) return 1;
        transfer->headerList = list;
    }
    curl_easy_setopt(transfer->easy, CURLOPT_HTTPHEADER, transfer->headerList);
    curl_easy_setopt(transfer->easy, CURLOPT_WRITEFUNCTION, keep_body);
    return 0;
}

int skeleton_done(CURLMsg *message, CURL **easy, CURLcode *result) {
    if (message->msg != CURLMSG_DONE) return 0;
    *easy = message->easy_handle;
    *result = message->data.result;
    return 1;
}

long skeleton_status(CURL *easy) {
    long status = 0;
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
    return status;
}

skeleton_transfer *skeleton_transfer_of(CURL *easy) {
    char *transfer = NULL;
    curl_easy_getinfo(easy, CURLINFO_PRIVATE, &transfer);
    return (skeleton_transfer *)transfer;
}
