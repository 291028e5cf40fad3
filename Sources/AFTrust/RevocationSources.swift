import CCurlShim
import Foundation

/// What one CRL or OCSP answer says of a certificate.
enum RevocationAnswer: Equatable {
    case good(nextUpdate: Date?)
    case revoked(String)
    /// The answer is usable but says nothing of the certificate, or cannot be used; why.
    case unusable(String)
}

/// The OpenSSL side of revocation checking: where a certificate's status is published, and what
/// a CRL or OCSP answer says of it.
enum RevocationSources {
    static func crlURLs(of certificate: Data) -> [String] { urls(of: certificate, kind: AFC_URLS_CRL) }
    static func ocspURLs(of certificate: Data) -> [String] { urls(of: certificate, kind: AFC_URLS_OCSP) }

    /// The subject as one line, for messages.
    static func subject(of certificate: Data) -> String {
        let text = certificate.withUnsafeBytes { afc_x509_subject(base($0), $0.count) }
        guard let text else { return "a certificate" }
        defer { afc_free(text) }
        return String(cString: text)
    }

    static func crlAnswer(_ crl: Data, certificate: Data, issuer: Data) -> RevocationAnswer {
        answer { nextUpdate, error, capacity in
            crl.withUnsafeBytes { crlBytes in
                certificate.withUnsafeBytes { certificateBytes in
                    issuer.withUnsafeBytes { issuerBytes in
                        afc_crl_status(base(crlBytes), crlBytes.count, base(certificateBytes), certificateBytes.count,
                                       base(issuerBytes), issuerBytes.count, nextUpdate, error, capacity)
                    }
                }
            }
        }
    }

    static func ocspAnswer(_ response: Data, certificate: Data, issuer: Data) -> RevocationAnswer {
        answer { nextUpdate, error, capacity in
            response.withUnsafeBytes { responseBytes in
                certificate.withUnsafeBytes { certificateBytes in
                    issuer.withUnsafeBytes { issuerBytes in
                        afc_ocsp_status(base(responseBytes), responseBytes.count, base(certificateBytes),
                                        certificateBytes.count, base(issuerBytes), issuerBytes.count, nextUpdate,
                                        error, capacity)
                    }
                }
            }
        }
    }

    /// The DER OCSP request for `certificate`.
    static func ocspRequest(certificate: Data, issuer: Data) -> Data? {
        var request: UnsafeMutablePointer<UInt8>?
        let length = certificate.withUnsafeBytes { certificateBytes in
            issuer.withUnsafeBytes { issuerBytes in
                afc_ocsp_request(base(certificateBytes), certificateBytes.count, base(issuerBytes), issuerBytes.count,
                                 &request)
            }
        }
        guard length > 0, let request else { return nil }
        defer { afc_free(request) }
        return Data(bytes: request, count: length)
    }

    /// Fetches `url` (POSTing `body` when given), blocking; the body of a 200, or why not.
    static func fetch(_ url: String, body: Data?, contentType: String?, timeout: TimeInterval,
                      maximumSize: Int) -> Result<Data, FetchError> {
        var data: UnsafeMutablePointer<UInt8>?
        var length = 0
        var error = [CChar](repeating: 0, count: 256)
        let fetched = withOptionalBytes(body) { bytes, count in
            afc_http_fetch(url, bytes, count, contentType, Int(timeout * 1000), maximumSize, &data, &length, &error,
                           error.count)
        }
        guard fetched == 1, let data else { return .failure(FetchError(reason: text(error))) }
        defer { afc_free(data) }
        return .success(Data(bytes: data, count: length))
    }

    struct FetchError: Error {
        var reason: String
    }

    private static func answer(_ check: (UnsafeMutablePointer<Int64>, UnsafeMutablePointer<CChar>, Int) -> afc_status)
        -> RevocationAnswer {
        var nextUpdate: Int64 = 0
        var error = [CChar](repeating: 0, count: 256)
        let status = error.withUnsafeMutableBufferPointer { check(&nextUpdate, $0.baseAddress!, $0.count) }
        switch status {
        case AFC_STATUS_GOOD:
            return .good(nextUpdate: nextUpdate > 0 ? Date(timeIntervalSince1970: TimeInterval(nextUpdate)) : nil)
        case AFC_STATUS_REVOKED:
            return .revoked(text(error))
        default:
            return .unusable(text(error))
        }
    }

    private static func urls(of certificate: Data, kind: afc_url_kind) -> [String] {
        let list = certificate.withUnsafeBytes { afc_x509_urls(base($0), $0.count, kind) }
        guard let list else { return [] }
        defer { afc_free(list) }
        return String(cString: list).split(separator: "\n").map(String.init)
    }

    private static func withOptionalBytes<Result>(_ data: Data?, _ body: (UnsafePointer<UInt8>?, Int) -> Result) -> Result {
        guard let data else { return body(nil, 0) }
        return data.withUnsafeBytes { body($0.bindMemory(to: UInt8.self).baseAddress, $0.count) }
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// The first byte of a buffer; for an empty one, a valid pointer to nothing (with length 0).
private func base(_ bytes: UnsafeRawBufferPointer) -> UnsafePointer<UInt8> {
    bytes.bindMemory(to: UInt8.self).baseAddress ?? ("" as StaticString).utf8Start
}
