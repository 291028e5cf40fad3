// Server trust: the TLS handshake's certificate chain handed to Swift, and the X.509 helpers the
// trust evaluators need (host check, public key), over OpenSSL.
#ifndef CCURLSHIM_TRUST_H
#define CCURLSHIM_TRUST_H

#include <curl/curl.h>
#include <stddef.h>

#pragma clang assume_nonnull begin

/// Called on the engine thread during each TLS handshake of a transfer with trust evaluation,
/// once the server's certificates and any stapled OCSP answer arrived and before the client
/// sends anything: `certificates` are the DER encodings of the chain, leaf first (the verified
/// chain when OpenSSL trusted it, else the chain built from the leaf by verified issuer signatures
/// over what the server sent); `default_trusted` is OpenSSL's own
/// verdict against the configured CAs, `default_error` its reason when not trusted; `staple` the
/// DER OCSP response the server stapled, if any. Return 1 to accept the connection, 0 to reject it.
typedef int (*afc_trust_callback)(void *_Nullable context, const unsigned char *_Nonnull const *_Nonnull certificates,
                                  const size_t *lengths, size_t count, int default_trusted,
                                  const char *_Nullable default_error, const unsigned char *_Nullable staple,
                                  size_t staple_length);

/// Sets the process-wide trust callback (once, before any transfer uses it).
void afc_set_trust_callback(afc_trust_callback callback);

/// Makes `handle`'s TLS handshakes ask the trust callback, with `context` (requesting a stapled
/// OCSP answer); a connection whose handshake did not reach the callback sends no request.
/// Uses the handle's SSL_CTX function and its pre-request function.
CURLcode afc_easy_enable_trust_callback(CURL *handle, void *_Nullable context);

/// Whether `der` is a certificate OpenSSL can read.
int afc_x509_is_valid(const unsigned char *der, size_t length);

/// 1 when the certificate is valid for `host` (a DNS name or an IP address), else 0.
int afc_x509_check_host(const unsigned char *der, size_t length, const char *host);

/// The DER SubjectPublicKeyInfo of the certificate, malloc'ed into `*spki` (free with
/// afc_free); its length, or 0 on failure.
size_t afc_x509_spki(const unsigned char *der, size_t length, unsigned char *_Nullable *_Nonnull spki);

/// 1 when the certificate's issuer is its own subject and its signature verifies with its own key.
int afc_x509_is_self_signed(const unsigned char *der, size_t length);

void afc_free(void *_Nullable pointer);

/// Verifies `chain` (DER, leaf first) with OpenSSL against `anchors`, plus the default CAs when
/// `use_default_anchors` (`ca_file`/`ca_path` if given, else the system's). With `partial_chain`,
/// any certificate in the store is a trust anchor even when it is not self-signed (OpenSSL's
/// X509_V_FLAG_PARTIAL_CHAIN, for this verification only): a pinned leaf or intermediate. Returns
/// 1 when it verifies; else 0 with OpenSSL's reason copied into `error`.
int afc_verify_chain(const unsigned char *_Nonnull const *_Nullable chain, const size_t *_Nullable chain_lengths,
                     size_t chain_count, const unsigned char *_Nonnull const *_Nullable anchors,
                     const size_t *_Nullable anchor_lengths, size_t anchor_count, int use_default_anchors,
                     int partial_chain, const char *_Nullable ca_file, const char *_Nullable ca_path, char *error,
                     size_t error_capacity);

/// SHA-256 of `length` bytes into `digest` (32 bytes); 1 on success.
int afc_sha256(const unsigned char *_Nullable data, size_t length, unsigned char *digest);

/// HMAC-SHA-256 of `length` bytes under `key` into `digest` (32 bytes); 1 on success.
int afc_hmac_sha256(const unsigned char *_Nullable key, size_t key_length, const unsigned char *_Nullable data,
                    size_t length, unsigned char *digest);

#pragma clang assume_nonnull end

#endif
