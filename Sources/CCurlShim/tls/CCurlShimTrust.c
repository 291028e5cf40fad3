#include "CCurlShimTrust.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

static afc_trust_callback trust_callback;

/// 1 when `issuer`'s name and key identifiers match `subject`'s issuer and its key verifies
/// `subject`'s signature. Validity dates and trust are not looked at.
static int signed_by(X509 *subject, X509 *issuer) {
    if (X509_check_issued(issuer, subject) != X509_V_OK) return 0;
    EVP_PKEY *key = X509_get0_pubkey(issuer);
    return key && X509_verify(subject, key) == 1;
}

/// The chain from `leaf` (the certificate whose key the peer proved it holds) up through
/// `candidates`, each link an issuer whose signature verifies; stops at a self-signed
/// certificate or where no candidate signed the last one. Certificates the peer sent that are not
/// on this path are left out, so nothing appended to a chain can be taken for part of it.
static STACK_OF(X509) *signature_chain(X509 *leaf, STACK_OF(X509) *candidates) {
    STACK_OF(X509) *chain = sk_X509_new_null();
    if (!chain || !leaf || !X509_up_ref(leaf)) return chain;
    sk_X509_push(chain, leaf);
    int limit = candidates ? sk_X509_num(candidates) : 0;
    for (X509 *current = leaf; sk_X509_num(chain) <= limit && !signed_by(current, current);) {
        X509 *next = NULL;
        for (int index = 0; !next && index < limit; index++) {
            X509 *candidate = sk_X509_value(candidates, index);
            int seen = 0;
            for (int link = 0; !seen && link < sk_X509_num(chain); link++) {
                seen = X509_cmp(sk_X509_value(chain, link), candidate) == 0;
            }
            if (!seen && signed_by(current, candidate)) next = candidate;
        }
        if (!next || !X509_up_ref(next)) break;
        sk_X509_push(chain, next);
        current = next;
    }
    return chain;
}

/// The chain to show the evaluators: the verified one, else the one built by signatures from the
/// leaf over what the peer sent.
static STACK_OF(X509) *presented_chain(X509_STORE_CTX *store, int trusted) {
    STACK_OF(X509) *chain = trusted ? X509_STORE_CTX_get1_chain(store) : NULL;
    if (chain && sk_X509_num(chain) > 0) return chain;
    if (chain) sk_X509_pop_free(chain, X509_free);
    return signature_chain(X509_STORE_CTX_get0_cert(store), X509_STORE_CTX_get0_untrusted(store));
}

/// What the verification step saw, kept on the SSL until the status step hands it to Swift.
struct pending_evaluation {
    unsigned char **ders;
    size_t *lengths;
    int count;
    int trusted;
    char reason[256];
};

static int pending_index = -1;

static void free_pending(struct pending_evaluation *pending) {
    if (!pending) return;
    for (int index = 0; pending->ders && index < pending->count; index++) OPENSSL_free(pending->ders[index]);
    free(pending->ders);
    free(pending->lengths);
    free(pending);
}

static void free_pending_ex_data(void *parent, void *pointer, CRYPTO_EX_DATA *data, int index, long argl, void *argp) {
    (void)parent, (void)data, (void)index, (void)argl, (void)argp;
    free_pending(pointer);
}

void afc_set_trust_callback(afc_trust_callback callback) {
    trust_callback = callback;
    if (pending_index < 0) pending_index = SSL_get_ex_new_index(0, NULL, NULL, NULL, free_pending_ex_data);
}

static struct pending_evaluation *take_pending(SSL *ssl) {
    struct pending_evaluation *pending = SSL_get_ex_data(ssl, pending_index);
    SSL_set_ex_data(ssl, pending_index, NULL);
    return pending;
}

/// Replaces OpenSSL's verification step: runs it and keeps the chain and the verdict for the
/// status step, which comes later in the same handshake (after any stapled OCSP answer).
static int verify_certificate(X509_STORE_CTX *store, void *context) {
    (void)context;
    SSL *ssl = X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx());
    int trusted = X509_verify_cert(store) > 0;
    int error = X509_STORE_CTX_get_error(store);
    STACK_OF(X509) *chain = presented_chain(store, trusted);
    int count = chain ? sk_X509_num(chain) : 0;
    struct pending_evaluation *pending = calloc(1, sizeof(*pending));
    int kept = 0;
    if (ssl && pending && pending_index >= 0) {
        pending->ders = calloc(count > 0 ? (size_t)count : 1, sizeof(unsigned char *));
        pending->lengths = calloc(count > 0 ? (size_t)count : 1, sizeof(size_t));
        pending->trusted = trusted;
        snprintf(pending->reason, sizeof(pending->reason), "%s", trusted ? "" : X509_verify_cert_error_string(error));
        for (; pending->ders && pending->lengths && pending->count < count; pending->count++) {
            int length = i2d_X509(sk_X509_value(chain, pending->count), &pending->ders[pending->count]);
            if (length <= 0) break;
            pending->lengths[pending->count] = (size_t)length;
        }
        if (pending->ders && pending->lengths && pending->count == count) {
            free_pending(take_pending(ssl));
            kept = SSL_set_ex_data(ssl, pending_index, pending) == 1;
        }
    }
    if (!kept) free_pending(pending);
    if (chain) sk_X509_pop_free(chain, X509_free);
    X509_STORE_CTX_set_error(store, kept ? X509_V_OK : X509_V_ERR_APPLICATION_VERIFICATION);
    return kept;
}

/// The status step of the handshake (OpenSSL calls it once the server's certificates and any
/// stapled OCSP answer are in, before the client sends anything of its own): asks Swift.
static int evaluate_status(SSL *ssl, void *context) {
    struct pending_evaluation *pending = take_pending(ssl);
    if (!pending || !trust_callback) {  // no chain was verified: never accept blindly
        free_pending(pending);
        return 0;
    }
    const unsigned char *staple = NULL;
    long staple_length = SSL_get_tlsext_status_ocsp_resp(ssl, &staple);
    int accepted = trust_callback(context, (const unsigned char *const *)pending->ders, pending->lengths,
                                  (size_t)pending->count, pending->trusted, pending->trusted ? NULL : pending->reason,
                                  staple_length > 0 ? staple : NULL, staple_length > 0 ? (size_t)staple_length : 0);
    free_pending(pending);
    return accepted ? 1 : 0;
}

static CURLcode install_verifier(CURL *handle, void *ssl_ctx, void *context) {
    (void)handle;
    SSL_CTX *ctx = ssl_ctx;
    SSL_CTX_set_cert_verify_callback(ctx, verify_certificate, context);
    SSL_CTX_set_tlsext_status_type(ctx, TLSEXT_STATUSTYPE_ocsp);
    SSL_CTX_set_tlsext_status_cb(ctx, evaluate_status);
    SSL_CTX_set_tlsext_status_arg(ctx, context);
    return CURLE_OK;
}

/// Before a request goes out on a connection: refuses one whose chain was verified but never
/// evaluated (a handshake that skipped the status step), so no path bypasses the evaluator.
static int guard_unevaluated(void *client, char *primary_ip, char *local_ip, int primary_port, int local_port) {
    (void)primary_ip, (void)local_ip, (void)primary_port, (void)local_port;
    const struct curl_tlssessioninfo *info = NULL;
    if (curl_easy_getinfo((CURL *)client, CURLINFO_TLS_SSL_PTR, &info) != CURLE_OK || !info) {
        return CURL_PREREQFUNC_ABORT;
    }
    if (info->backend == CURLSSLBACKEND_OPENSSL && info->internals &&
        SSL_get_ex_data((SSL *)info->internals, pending_index) != NULL) {
        return CURL_PREREQFUNC_ABORT;
    }
    return CURL_PREREQFUNC_OK;
}

CURLcode afc_easy_enable_trust_callback(CURL *handle, void *context) {
    CURLcode result = curl_easy_setopt(handle, CURLOPT_SSL_CTX_FUNCTION, install_verifier);
    if (result == CURLE_OK) result = curl_easy_setopt(handle, CURLOPT_SSL_CTX_DATA, context);
    if (result == CURLE_OK) result = curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, guard_unevaluated);
    if (result == CURLE_OK) result = curl_easy_setopt(handle, CURLOPT_PREREQDATA, handle);
    return result;
}

static X509 *read_certificate(const unsigned char *der, size_t length) {
    const unsigned char *cursor = der;
    return d2i_X509(NULL, &cursor, (long)length);
}

int afc_x509_is_valid(const unsigned char *der, size_t length) {
    X509 *certificate = read_certificate(der, length);
    if (!certificate) return 0;
    X509_free(certificate);
    return 1;
}

int afc_x509_check_host(const unsigned char *der, size_t length, const char *host) {
    X509 *certificate = read_certificate(der, length);
    if (!certificate) return 0;
    int matched = X509_check_ip_asc(certificate, host, 0);
    if (matched < 0) {  // not an IP address: a DNS name
        matched = X509_check_host(certificate, host, strlen(host), X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS, NULL);
    }
    X509_free(certificate);
    return matched == 1;
}

size_t afc_x509_spki(const unsigned char *der, size_t length, unsigned char **spki) {
    *spki = NULL;
    X509 *certificate = read_certificate(der, length);
    if (!certificate) return 0;
    unsigned char *encoded = NULL;
    int size = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(certificate), &encoded);
    X509_free(certificate);
    if (size <= 0) return 0;
    *spki = malloc((size_t)size);
    if (*spki) memcpy(*spki, encoded, (size_t)size);
    OPENSSL_free(encoded);
    return *spki ? (size_t)size : 0;
}

int afc_x509_is_self_signed(const unsigned char *der, size_t length) {
    X509 *certificate = read_certificate(der, length);
    if (!certificate) return 0;
    int self_signed = X509_self_signed(certificate, 1) == 1;
    X509_free(certificate);
    return self_signed;
}

void afc_free(void *pointer) {
    free(pointer);
}

int afc_verify_chain(const unsigned char *const *chain, const size_t *chain_lengths, size_t chain_count,
                     const unsigned char *const *anchors, const size_t *anchor_lengths, size_t anchor_count,
                     int use_default_anchors, int partial_chain, const char *_Nullable ca_file,
                     const char *_Nullable ca_path, char *error, size_t error_capacity) {
    int verified = 0;
    const char *reason = "the chain is empty";
    X509_STORE *store = X509_STORE_new();
    STACK_OF(X509) *untrusted = sk_X509_new_null();
    X509 *leaf = NULL;
    X509_STORE_CTX *context = NULL;
    if (!store || !untrusted || chain_count == 0) goto done;
    reason = "the CAs could not be loaded";
    if (use_default_anchors) {
        if (ca_file || ca_path) {
            if (X509_STORE_load_locations(store, ca_file, ca_path) != 1) goto done;
        } else if (X509_STORE_set_default_paths(store) != 1) {
            goto done;
        }
    }
    if (partial_chain && X509_STORE_set_flags(store, X509_V_FLAG_PARTIAL_CHAIN) != 1) goto done;
    reason = "a certificate could not be read";
    for (size_t index = 0; index < anchor_count; index++) {
        X509 *anchor = read_certificate(anchors[index], anchor_lengths[index]);
        if (!anchor) goto done;
        X509_STORE_add_cert(store, anchor);
        X509_free(anchor);
    }
    leaf = read_certificate(chain[0], chain_lengths[0]);
    if (!leaf) goto done;
    for (size_t index = 1; index < chain_count; index++) {
        X509 *certificate = read_certificate(chain[index], chain_lengths[index]);
        if (!certificate) goto done;
        sk_X509_push(untrusted, certificate);
    }
    context = X509_STORE_CTX_new();
    if (!context || X509_STORE_CTX_init(context, store, leaf, untrusted) != 1) goto done;
    verified = X509_verify_cert(context) == 1;
    reason = verified ? NULL : X509_verify_cert_error_string(X509_STORE_CTX_get_error(context));
done:
    if (error && error_capacity > 0) {
        snprintf(error, error_capacity, "%s", reason ? reason : "");
    }
    X509_STORE_CTX_free(context);
    X509_free(leaf);
    sk_X509_pop_free(untrusted, X509_free);
    X509_STORE_free(store);
    return verified;
}

int afc_sha256(const unsigned char *data, size_t length, unsigned char *digest) {
    unsigned int size = 0;
    return EVP_Digest(data ? data : (const unsigned char *)"", length, digest, &size, EVP_sha256(), NULL) == 1 && size == 32;
}

int afc_hmac_sha256(const unsigned char *key, size_t key_length, const unsigned char *data, size_t length,
                    unsigned char *digest) {
    static const unsigned char empty = 0;
    unsigned int size = 0;
    return HMAC(EVP_sha256(), key ? key : &empty, (int)key_length, data ? data : &empty, length, digest, &size) != NULL
        && size == 32;
}
