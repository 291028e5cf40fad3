// Revocation: where a certificate's status is published (CRL distribution points, OCSP
// responders), reading CRLs and OCSP answers for one certificate, and fetching them over HTTP.
#ifndef CCURLSHIM_REVOCATION_H
#define CCURLSHIM_REVOCATION_H

#include <stddef.h>

#pragma clang assume_nonnull begin

/// A certificate's status as one CRL or OCSP answer tells it.
typedef enum {
    AFC_STATUS_GOOD = 0,
    AFC_STATUS_REVOKED = 1,
    /// The answer is valid but does not know the certificate (an OCSP "unknown").
    AFC_STATUS_UNKNOWN = 2,
    /// The answer cannot be used: unreadable, not signed by the issuer, out of date, wrong issuer.
    AFC_STATUS_INVALID = -1,
} afc_status;

/// Which URLs `afc_x509_urls` lists.
typedef enum {
    AFC_URLS_CRL = 0,
    AFC_URLS_OCSP = 1,
} afc_url_kind;

/// The certificate's CRL distribution point or OCSP responder URLs, one per line, malloc'ed
/// (free with afc_free); NULL when it has none.
char *_Nullable afc_x509_urls(const unsigned char *der, size_t length, afc_url_kind kind);

/// The certificate's subject as one line ("CN=localhost"), malloc'ed (free with afc_free).
char *_Nullable afc_x509_subject(const unsigned char *der, size_t length);

/// The status of `certificate` by the DER `crl`, which must be signed by `issuer` and current;
/// `*next_update` gets the CRL's nextUpdate (seconds since 1970, 0 when absent). When
/// AFC_STATUS_INVALID or REVOKED, `error` says why.
afc_status afc_crl_status(const unsigned char *crl, size_t crl_length, const unsigned char *certificate,
                          size_t certificate_length, const unsigned char *issuer, size_t issuer_length,
                          long long *next_update, char *error, size_t error_capacity);

/// A DER OCSP request for `certificate` issued by `issuer`, malloc'ed into `*request` (free with
/// afc_free); its length, or 0 on failure.
size_t afc_ocsp_request(const unsigned char *certificate, size_t certificate_length, const unsigned char *issuer,
                        size_t issuer_length, unsigned char *_Nullable *_Nonnull request);

/// The status of `certificate` by the DER OCSP `response`, which must be signed by `issuer` or a
/// responder it delegated to, and current; `*next_update` as for CRLs.
afc_status afc_ocsp_status(const unsigned char *response, size_t response_length, const unsigned char *certificate,
                           size_t certificate_length, const unsigned char *issuer, size_t issuer_length,
                           long long *next_update, char *error, size_t error_capacity);

/// Fetches `url` with a blocking curl transfer (GET, or POST of `body` with `content_type`), at
/// most `timeout_ms` and `max_size` bytes; returns 1 with the body malloc'ed into `*data` (free
/// with afc_free) when the server answered 200, else 0 with the reason in `error`.
int afc_http_fetch(const char *url, const unsigned char *_Nullable body, size_t body_length,
                   const char *_Nullable content_type, long timeout_ms, size_t max_size,
                   unsigned char *_Nullable *_Nonnull data, size_t *length, char *error, size_t error_capacity);

#pragma clang assume_nonnull end

#endif
