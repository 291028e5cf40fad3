// Raw libcurl baseline for the large-body workloads, on the multi interface like the request
// workloads, tuned with 512 KiB receive and upload buffers.
//
//   download URL PATH          GET URL into PATH (removed afterwards)
//   upload-file URL PATH       POST the file at PATH as the body
//   upload-multipart URL PATH  POST a multipart/form-data form holding PATH as one file part

#include "transfer.h"

#include "result.h"

#include <curl/curl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { BUFFER = 512 * 1024 };

struct counted_file {
    FILE *file;
    curl_off_t bytes;
};

static size_t write_file(char *data, size_t size, size_t count, void *context) {
    struct counted_file *sink = context;
    size_t written = fwrite(data, size, count, sink->file);
    sink->bytes += (curl_off_t)(written * size);
    return written * size;
}

static size_t read_file(char *buffer, size_t size, size_t count, void *context) {
    return fread(buffer, size, count, ((struct counted_file *)context)->file) * size;
}

/// Keeps the start of the response (the /sink answer, `{"bytes": N}`) to check the count.
struct answer {
    char text[256];
    size_t length;
};

static size_t keep_answer(char *data, size_t size, size_t count, void *context) {
    struct answer *answer = context;
    size_t room = sizeof(answer->text) - 1 - answer->length;
    size_t taken = size * count < room ? size * count : room;
    memcpy(answer->text + answer->length, data, taken);
    answer->length += taken;
    answer->text[answer->length] = 0;
    return size * count;
}

/// Runs one transfer on a multi handle until it is done; returns its result code.
static CURLcode perform(CURL *easy) {
    CURLM *multi = curl_multi_init();
    curl_multi_add_handle(multi, easy);
    CURLcode result = CURLE_OK;
    int running = 1;
    while (running) {
        curl_multi_perform(multi, &running);
        if (running) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }
    CURLMsg *message;
    int queued;
    while ((message = curl_multi_info_read(multi, &queued))) {
        if (message->msg == CURLMSG_DONE) result = message->data.result;
    }
    curl_multi_remove_handle(multi, easy);
    curl_multi_cleanup(multi);
    return result;
}

int run_transfer(const char *mode, const char *url, const char *path) {
    struct stat info;
    int download = strcmp(mode, "download") == 0;
    if (!download && stat(path, &info) != 0) {
        fprintf(stderr, "cannot read %s\n", path);
        return 2;
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURL *easy = curl_easy_init();
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_BUFFERSIZE, (long)BUFFER);
    curl_easy_setopt(easy, CURLOPT_UPLOAD_BUFFERSIZE, (long)BUFFER);

    // No "Expect: 100-continue" wait before the body, as AF does not wait either.
    struct curl_slist *headers = curl_slist_append(NULL, "Expect:");
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);

    struct counted_file file = {0};
    struct answer answer = {0};
    curl_mime *form = NULL;
    double start = bench_now();
    if (download) {
        file.file = fopen(path, "wb");
        if (!file.file) return 2;
        curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, write_file);
        curl_easy_setopt(easy, CURLOPT_WRITEDATA, &file);
    } else {
        curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, keep_answer);
        curl_easy_setopt(easy, CURLOPT_WRITEDATA, &answer);
        if (strcmp(mode, "upload-multipart") == 0) {
            form = curl_mime_init(easy);
            curl_mimepart *part = curl_mime_addpart(form);
            curl_mime_name(part, "file");
            curl_mime_filedata(part, path);
            curl_easy_setopt(easy, CURLOPT_MIMEPOST, form);
        } else {
            file.file = fopen(path, "rb");
            if (!file.file) return 2;
            curl_easy_setopt(easy, CURLOPT_POST, 1L);
            curl_easy_setopt(easy, CURLOPT_READFUNCTION, read_file);
            curl_easy_setopt(easy, CURLOPT_READDATA, &file);
            curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)info.st_size);
        }
    }
    CURLcode result = perform(easy);
    double seconds = bench_now() - start;

    long status = 0;
    curl_off_t moved = 0;
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_getinfo(easy, download ? CURLINFO_SIZE_DOWNLOAD_T : CURLINFO_SIZE_UPLOAD_T, &moved);
    if (!download) {  // what the server says it read, not what curl says it sent
        const char *field = strstr(answer.text, "\"bytes\"");
        long long counted = -1;
        if (!field || sscanf(field, "\"bytes\" : %lld", &counted) != 1) counted = -1;
        moved = (curl_off_t)counted;
    }
    if (file.file) fclose(file.file);
    if (download) unlink(path);
    int failed = result != CURLE_OK || status / 100 != 2 || (!download && moved < (curl_off_t)info.st_size);

    bench_print_result(1, failed, seconds, 1, (long long)moved);
    if (failed) fprintf(stderr, "transfer failed: %s, status %ld\n", curl_easy_strerror(result), status);
    curl_mime_free(form);
    curl_slist_free_all(headers);
    curl_easy_cleanup(easy);
    curl_global_cleanup();
    return failed;
}
