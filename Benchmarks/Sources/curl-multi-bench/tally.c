#include "tally.h"

#include "result.h"

CURL *bench_easy(const char *url, struct bench_tally *tally) {
    CURL *easy = curl_easy_init();
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, bench_discard);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, &tally->bytes);
    return easy;
}

void bench_take_finished(CURLM *multi, struct bench_tally *tally) {
    CURLMsg *message;
    int queued;
    while ((message = curl_multi_info_read(multi, &queued))) {
        if (message->msg != CURLMSG_DONE) continue;
        CURL *easy = message->easy_handle;
        long status = 0, connects = 0;
        curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
        curl_easy_getinfo(easy, CURLINFO_NUM_CONNECTS, &connects);
        if (message->data.result != CURLE_OK || status != 200) tally->failures++;
        tally->connections += connects;
        tally->finished++;
        curl_multi_remove_handle(multi, easy);
        if (tally->started < tally->count) {
            tally->started++;
            curl_multi_add_handle(multi, easy);
        }
    }
}
