// Raw libcurl baseline: COUNT GETs of URL with INFLIGHT transfers kept in flight on one multi
// handle, easy handles reused so connections stay alive. Prints one JSON line of results.
//
// usage: curl-multi-bench URL COUNT INFLIGHT [CAFILE] [BUFFERSIZE]
//        curl-multi-bench URL COUNT INFLIGHT CAFILE socket[:SHARDS]   (curl's socket interface, over
//                         SHARDS multi handles, 1 by default: socket_loop.c)
//        curl-multi-bench download|upload-file|upload-multipart URL PATH   (transfer.c)

#include "result.h"
#include "socket_loop.h"
#include "tally.h"
#include "transfer.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc == 4 && (strcmp(argv[1], "download") == 0 || strncmp(argv[1], "upload-", 7) == 0)) {
        return run_transfer(argv[1], argv[2], argv[3]);
    }
    if (argc < 4) {
        fprintf(stderr, "usage: %s URL COUNT INFLIGHT [CAFILE] [BUFFERSIZE]\n", argv[0]);
        return 2;
    }
    const char *url = argv[1];
    long count = atol(argv[2]);
    long inflight = atol(argv[3]);
    if (argc > 5 && strncmp(argv[5], "socket", 6) == 0) {
        return run_socket_loop(url, count, inflight, argv[5][6] == ':' ? atol(argv[5] + 7) : 1);
    }
    const char *cafile = argc > 4 && argv[4][0] ? argv[4] : NULL;
    long buffer_size = argc > 5 ? atol(argv[5]) : 0;
    if (count <= 0 || inflight <= 0) return 2;
    if (inflight > count) inflight = count;

    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURLM *multi = curl_multi_init();
    curl_multi_setopt(multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX);
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, inflight);
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, inflight);

    struct bench_tally tally = {.count = count};
    CURL **handles = calloc((size_t)inflight, sizeof(CURL *));
    for (long i = 0; i < inflight; i++) {
        CURL *easy = bench_easy(url, &tally);
        // Waiting for a connection to multiplex on only where HTTP/2 may be spoken (as AF does):
        // on cleartext HTTP/1.1 a handle would queue behind a busy connection until its response.
        if (strncmp(url, "https:", 6) == 0) curl_easy_setopt(easy, CURLOPT_PIPEWAIT, 1L);
        curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
        if (cafile) curl_easy_setopt(easy, CURLOPT_CAINFO, cafile);
        if (buffer_size > 0) curl_easy_setopt(easy, CURLOPT_BUFFERSIZE, buffer_size);
        handles[i] = easy;
    }

    double start = bench_now();
    for (; tally.started < inflight; tally.started++) curl_multi_add_handle(multi, handles[tally.started]);

    int running = 1;
    while (tally.finished < count) {
        curl_multi_perform(multi, &running);
        bench_take_finished(multi, &tally);
        if (tally.finished < count) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }
    double seconds = bench_now() - start;

    bench_print_result(count, tally.failures, seconds, tally.connections, (long long)tally.bytes);

    for (long i = 0; i < inflight; i++) curl_easy_cleanup(handles[i]);
    free(handles);
    curl_multi_cleanup(multi);
    curl_global_cleanup();
    return tally.failures == 0 ? 0 : 1;
}
