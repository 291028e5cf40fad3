#include "CCurlShim.h"

CURLcode afc_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode afc_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode afc_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode afc_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode afc_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode afc_easy_setopt_data_callback(CURL *handle, CURLoption option, afc_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

CURLcode afc_easy_setopt_xferinfo_callback(CURL *handle, afc_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

CURLcode afc_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode afc_easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode afc_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode afc_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLMcode afc_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

int afc_multi_message_done(CURLMsg *message, CURL **handle, CURLcode *result) {
    if (message->msg != CURLMSG_DONE) return 0;
    *handle = message->easy_handle;
    *result = message->data.result;
    return 1;
}

size_t afc_readfunc_pause(void) { return CURL_READFUNC_PAUSE; }
size_t afc_writefunc_pause(void) { return CURL_WRITEFUNC_PAUSE; }
size_t afc_readfunc_abort(void) { return CURL_READFUNC_ABORT; }

long afc_httpauth_basic_digest(void) {
    return (long)(CURLAUTH_BASIC | CURLAUTH_DIGEST);
}

unsigned int afc_curl_version_number(void) {
    return curl_version_info(CURLVERSION_NOW)->version_num;
}

CURLcode afc_easy_setopt_seek_callback(CURL *handle, afc_seek_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_SEEKFUNCTION, callback);
}
