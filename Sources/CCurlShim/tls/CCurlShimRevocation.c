#include "CCurlShimRevocation.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <openssl/ocsp.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

static X509 *read_x509(const unsigned char *der, size_t length) {
    const unsigned char *cursor = der;
    return d2i_X509(NULL, &cursor, (long)length);
}

static void say(char *error, size_t capacity, const char *text) {
    if (error && capacity > 0) snprintf(error, capacity, "%s", text);
}

/// Appends `text` and a newline to the malloc'ed `*list`; 0 when out of memory.
static int append_line(char **list, size_t *size, const char *text, size_t length) {
    char *grown = realloc(*list, *size + length + 2);
    if (!grown) return 0;
    memcpy(grown + *size, text, length);
    grown[*size + length] = '\n';
    grown[*size + length + 1] = '\0';
    *list = grown;
    *size += length + 1;
    return 1;
}

static void append_uri(char **list, size_t *size, const GENERAL_NAME *name) {
    if (name->type != GEN_URI) return;
    const ASN1_IA5STRING *uri = name->d.uniformResourceIdentifier;
    append_line(list, size, (const char *)ASN1_STRING_get0_data(uri), (size_t)ASN1_STRING_length(uri));
}

char *afc_x509_urls(const unsigned char *der, size_t length, afc_url_kind kind) {
    X509 *certificate = read_x509(der, length);
    if (!certificate) return NULL;
    char *list = NULL;
    size_t size = 0;
    if (kind == AFC_URLS_CRL) {
        STACK_OF(DIST_POINT) *points = X509_get_ext_d2i(certificate, NID_crl_distribution_points, NULL, NULL);
        for (int index = 0; points && index < sk_DIST_POINT_num(points); index++) {
            DIST_POINT *point = sk_DIST_POINT_value(points, index);
            if (!point->distpoint || point->distpoint->type != 0) continue;  // 0: a full name
            GENERAL_NAMES *names = point->distpoint->name.fullname;
            for (int name = 0; name < sk_GENERAL_NAME_num(names); name++) {
                append_uri(&list, &size, sk_GENERAL_NAME_value(names, name));
            }
        }
        sk_DIST_POINT_pop_free(points, DIST_POINT_free);
    } else {
        AUTHORITY_INFO_ACCESS *access = X509_get_ext_d2i(certificate, NID_info_access, NULL, NULL);
        for (int index = 0; access && index < sk_ACCESS_DESCRIPTION_num(access); index++) {
            ACCESS_DESCRIPTION *description = sk_ACCESS_DESCRIPTION_value(access, index);
            if (OBJ_obj2nid(description->method) == NID_ad_OCSP) append_uri(&list, &size, description->location);
        }
        AUTHORITY_INFO_ACCESS_free(access);
    }
    X509_free(certificate);
    return list;
}

char *afc_x509_subject(const unsigned char *der, size_t length) {
    X509 *certificate = read_x509(der, length);
    if (!certificate) return NULL;
    BIO *bio = BIO_new(BIO_s_mem());
    char *text = NULL;
    if (bio && X509_NAME_print_ex(bio, X509_get_subject_name(certificate), 0, XN_FLAG_RFC2253) >= 0) {
        char *contents = NULL;
        long size = BIO_get_mem_data(bio, &contents);
        text = malloc((size_t)size + 1);
        if (text) {
            memcpy(text, contents, (size_t)size);
            text[size] = '\0';
        }
    }
    BIO_free(bio);
    X509_free(certificate);
    return text;
}

static long long seconds(const ASN1_TIME *time) {
    struct tm parts;
    if (!time || ASN1_TIME_to_tm(time, &parts) != 1) return 0;
    return (long long)timegm(&parts);
}

afc_status afc_crl_status(const unsigned char *crl_der, size_t crl_length, const unsigned char *certificate_der,
                          size_t certificate_length, const unsigned char *issuer_der, size_t issuer_length,
                          long long *next_update, char *error, size_t error_capacity) {
    *next_update = 0;
    afc_status status = AFC_STATUS_INVALID;
    const unsigned char *cursor = crl_der;
    X509_CRL *crl = d2i_X509_CRL(NULL, &cursor, (long)crl_length);
    X509 *certificate = read_x509(certificate_der, certificate_length);
    X509 *issuer = read_x509(issuer_der, issuer_length);
    EVP_PKEY *key = issuer ? X509_get0_pubkey(issuer) : NULL;
    X509_REVOKED *entry = NULL;
    if (!crl || !certificate || !issuer) {
        say(error, error_capacity, "the CRL or a certificate could not be read");
    } else if (X509_NAME_cmp(X509_CRL_get_issuer(crl), X509_get_subject_name(issuer)) != 0) {
        say(error, error_capacity, "the CRL is not the issuer's");
    } else if (!key || X509_CRL_verify(crl, key) != 1) {
        say(error, error_capacity, "the CRL's signature does not verify with the issuer's key");
    } else if (X509_cmp_current_time(X509_CRL_get0_lastUpdate(crl)) > 0) {
        say(error, error_capacity, "the CRL is not yet valid");
    } else if (X509_CRL_get0_nextUpdate(crl) && X509_cmp_current_time(X509_CRL_get0_nextUpdate(crl)) < 0) {
        say(error, error_capacity, "the CRL has expired");
    } else {
        *next_update = seconds(X509_CRL_get0_nextUpdate(crl));
        if (X509_CRL_get0_by_cert(crl, &entry, certificate) == 1 && entry) {
            status = AFC_STATUS_REVOKED;
            say(error, error_capacity, "listed in the CRL");
        } else {
            status = AFC_STATUS_GOOD;
        }
    }
    X509_CRL_free(crl);
    X509_free(certificate);
    X509_free(issuer);
    return status;
}

size_t afc_ocsp_request(const unsigned char *certificate_der, size_t certificate_length, const unsigned char *issuer_der,
                        size_t issuer_length, unsigned char **request_der) {
    *request_der = NULL;
    X509 *certificate = read_x509(certificate_der, certificate_length);
    X509 *issuer = read_x509(issuer_der, issuer_length);
    OCSP_REQUEST *request = OCSP_REQUEST_new();
    OCSP_CERTID *id = certificate && issuer ? OCSP_cert_to_id(NULL, certificate, issuer) : NULL;
    size_t size = 0;
    if (request && id && OCSP_request_add0_id(request, id)) {
        id = NULL;  // owned by the request now
        unsigned char *encoded = NULL;
        int length = i2d_OCSP_REQUEST(request, &encoded);
        if (length > 0 && (*request_der = malloc((size_t)length))) {
            memcpy(*request_der, encoded, (size_t)length);
            size = (size_t)length;
        }
        OPENSSL_free(encoded);
    }
    OCSP_CERTID_free(id);
    OCSP_REQUEST_free(request);
    X509_free(certificate);
    X509_free(issuer);
    return size;
}

afc_status afc_ocsp_status(const unsigned char *response_der, size_t response_length, const unsigned char *certificate_der,
                           size_t certificate_length, const unsigned char *issuer_der, size_t issuer_length,
                           long long *next_update, char *error, size_t error_capacity) {
    *next_update = 0;
    afc_status status = AFC_STATUS_INVALID;
    const unsigned char *cursor = response_der;
    OCSP_RESPONSE *response = d2i_OCSP_RESPONSE(NULL, &cursor, (long)response_length);
    X509 *certificate = read_x509(certificate_der, certificate_length);
    X509 *issuer = read_x509(issuer_der, issuer_length);
    OCSP_BASICRESP *basic = NULL;
    X509_STORE *store = X509_STORE_new();
    STACK_OF(X509) *issuers = sk_X509_new_null();
    OCSP_CERTID *id = NULL;
    int found = 0, reason = 0;
    ASN1_GENERALIZEDTIME *revoked_at = NULL, *this_update = NULL, *next = NULL;
    if (!response || !certificate || !issuer || !store || !issuers) {
        say(error, error_capacity, "the OCSP response or a certificate could not be read");
    } else if (OCSP_response_status(response) != OCSP_RESPONSE_STATUS_SUCCESSFUL) {
        say(error, error_capacity, OCSP_response_status_str(OCSP_response_status(response)));
    } else if (!(basic = OCSP_response_get1_basic(response))) {
        say(error, error_capacity, "the OCSP response is not a basic response");
    } else {
        // The issuer is the only anchor: it signed the answer, or certified the responder that did.
        X509_STORE_add_cert(store, issuer);
        X509_STORE_set_flags(store, X509_V_FLAG_PARTIAL_CHAIN);
        sk_X509_push(issuers, issuer);
        id = OCSP_cert_to_id(NULL, certificate, issuer);
        if (OCSP_basic_verify(basic, issuers, store, 0) != 1) {
            say(error, error_capacity, "the OCSP response is not signed by the issuer or its responder");
        } else if (!id || OCSP_resp_find_status(basic, id, &found, &reason, &revoked_at, &this_update, &next) != 1) {
            say(error, error_capacity, "the OCSP response does not mention the certificate");
        } else if (OCSP_check_validity(this_update, next, 300, -1) != 1) {
            say(error, error_capacity, "the OCSP response is out of date");
        } else {
            *next_update = seconds(next);
            status = found == V_OCSP_CERTSTATUS_GOOD      ? AFC_STATUS_GOOD
                     : found == V_OCSP_CERTSTATUS_REVOKED ? AFC_STATUS_REVOKED
                                                          : AFC_STATUS_UNKNOWN;
            if (status == AFC_STATUS_REVOKED) {
                say(error, error_capacity, reason >= 0 ? OCSP_crl_reason_str(reason) : "revoked");
            } else if (status == AFC_STATUS_UNKNOWN) {
                say(error, error_capacity, "the responder does not know the certificate");
            }
        }
    }
    OCSP_CERTID_free(id);
    sk_X509_free(issuers);
    X509_STORE_free(store);
    OCSP_BASICRESP_free(basic);
    OCSP_RESPONSE_free(response);
    X509_free(certificate);
    X509_free(issuer);
    return status;
}

struct fetch_buffer {
    unsigned char *data;
    size_t length;
    size_t limit;
    int too_large;
};

static size_t collect(char *bytes, size_t size, size_t count, void *context) {
    struct fetch_buffer *buffer = context;
    size_t length = size * count;
    if (buffer->length + length > buffer->limit) {
        buffer->too_large = 1;
        return 0;
    }
    unsigned char *grown = realloc(buffer->data, buffer->length + length + 1);
    if (!grown) return 0;
    memcpy(grown + buffer->length, bytes, length);
    buffer->data = grown;
    buffer->length += length;
    return length;
}

int afc_http_fetch(const char *url, const unsigned char *body, size_t body_length, const char *content_type,
                   long timeout_ms, size_t max_size, unsigned char **data, size_t *length, char *error,
                   size_t error_capacity) {
    *data = NULL;
    *length = 0;
    struct fetch_buffer buffer = {NULL, 0, max_size, 0};
    char curl_error[CURL_ERROR_SIZE] = "";
    struct curl_slist *headers = NULL;
    CURL *handle = curl_easy_init();
    if (!handle) {
        say(error, error_capacity, "out of memory");
        return 0;
    }
    curl_easy_setopt(handle, CURLOPT_URL, url);
    curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(handle, CURLOPT_WRITEDATA, &buffer);
    curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, curl_error);
    if (body) {
        char header[256];
        snprintf(header, sizeof(header), "Content-Type: %s", content_type ? content_type : "application/octet-stream");
        headers = curl_slist_append(headers, header);
        curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
        curl_easy_setopt(handle, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_length);
    }
    CURLcode result = curl_easy_perform(handle);
    long status = 0;
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
    int fetched = 0;
    if (buffer.too_large) {
        say(error, error_capacity, "the answer is too large");
    } else if (result != CURLE_OK) {
        say(error, error_capacity, curl_error[0] ? curl_error : curl_easy_strerror(result));
    } else if (status != 200) {
        char text[64];
        snprintf(text, sizeof(text), "the server answered %ld", status);
        say(error, error_capacity, text);
    } else {
        fetched = 1;
    }
    curl_slist_free_all(headers);
    curl_easy_cleanup(handle);
    if (fetched) {
        *data = buffer.data ? buffer.data : malloc(1);
        *length = buffer.length;
    } else {
        free(buffer.data);
    }
    return fetched && *data;
}
