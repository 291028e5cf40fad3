// CCurlShim: the C that AF's Swift cannot do itself, one header per job, all included here.
// The sources are grouped by what they talk to:
//   curl/    typed, non-variadic wrappers over libcurl (this header): one setter per argument
//            type curl reads (long, curl_off_t, pointer, string, callback), because Swift
//            cannot call the variadic curl_easy_setopt/curl_easy_getinfo.
//   tls/     server trust over OpenSSL: the handshake's chain handed to Swift, X.509 helpers
//            (CCurlShimTrust.h); certificate revocation by CRL and OCSP (CCurlShimRevocation.h).
//   system/  the kernel and zlib: the epoll set where the engine thread waits and where curl's
//            sockets go (CCurlShimWaitSet.h); sockets that follow the host's network
//            (CCurlShimPath.h); zlib compression for request bodies (CCurlShimDeflate.h).
#ifndef CCURLSHIM_H
#define CCURLSHIM_H

#include <curl/curl.h>
#include "CCurlShimTrust.h"
#include "CCurlShimRevocation.h"
#include "CCurlShimDeflate.h"
#include "CCurlShimWaitSet.h"
#include "CCurlShimPath.h"
#include "CCurlShimThread.h"

#pragma clang assume_nonnull begin

typedef size_t (*afc_data_callback)(char *_Nullable buffer, size_t size, size_t count, void *_Nullable context);
typedef int (*afc_xferinfo_callback)(void *_Nullable context, curl_off_t dltotal, curl_off_t dlnow,
                                     curl_off_t ultotal, curl_off_t ulnow);

CURLcode afc_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode afc_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode afc_easy_setopt_pointer(CURL *handle, CURLoption option, void *_Nullable value);
CURLcode afc_easy_setopt_string(CURL *handle, CURLoption option, const char *_Nullable value);
CURLcode afc_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *_Nullable value);
/// CURLOPT_WRITEFUNCTION, CURLOPT_HEADERFUNCTION or CURLOPT_READFUNCTION.
CURLcode afc_easy_setopt_data_callback(CURL *handle, CURLoption option, afc_data_callback _Nullable callback);
CURLcode afc_easy_setopt_xferinfo_callback(CURL *handle, afc_xferinfo_callback _Nullable callback);
typedef int (*afc_seek_callback)(void *_Nullable context, curl_off_t offset, int origin);
/// CURLOPT_SEEKFUNCTION: lets curl rewind an upload (auth probes, a dead reused connection).
CURLcode afc_easy_setopt_seek_callback(CURL *handle, afc_seek_callback _Nullable callback);

CURLcode afc_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode afc_easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode afc_easy_getinfo_string(CURL *handle, CURLINFO info, const char *_Nullable *_Nonnull value);
CURLcode afc_easy_getinfo_pointer(CURL *handle, CURLINFO info, void *_Nullable *_Nonnull value);

CURLMcode afc_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

/// The easy handle and result of a CURLMSG_DONE message, or 0 when `message` is not one.
int afc_multi_message_done(CURLMsg *message, CURL *_Nullable *_Nonnull handle, CURLcode *result);

/// Value curl's read callback returns to pause, and that a write callback returns to pause.
size_t afc_readfunc_pause(void);
size_t afc_writefunc_pause(void);
/// Value a read callback returns to abort the transfer.
size_t afc_readfunc_abort(void);

/// CURLOPT_HTTPAUTH mask answering Basic and Digest challenges (curl probes before sending).
long afc_httpauth_basic_digest(void);

/// The running libcurl's version as 0xXXYYZZ (major, minor, patch).
unsigned int afc_curl_version_number(void);

#pragma clang assume_nonnull end

#endif
