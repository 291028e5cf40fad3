import CCurl
import Foundation

/// A failed curl transfer: its code and curl's own words.
///
/// A class: an exchange's outcome carries it as one optional reference, which costs nothing to
/// copy when the exchange succeeded (a struct of this many optional fields is copied field by
/// field through its value witnesses at each read).
final class CurlFailure: Error, Sendable {
    let code: CURLcode
    let message: String?
    /// An error found by AF itself (an upload file that cannot be read), reported as it is.
    let localError: URLError?
    /// An AFError found by AF itself (the trust evaluator's verdict, a request refused before
    /// sending), reported as it is.
    let afError: AFError?
    /// The evaluator's request to fetch something and try the exchange again.
    let trustPending: ServerTrustEvaluationPending?

    init(code: CURLcode, message: String? = nil, localError: URLError? = nil, afError: AFError? = nil,
         trustPending: ServerTrustEvaluationPending? = nil) {
        self.code = code
        self.message = message
        self.localError = localError
        self.afError = afError
        self.trustPending = trustPending
    }

    /// The `URLError` a URLSession user would get for this failure.
    func urlError(failingURL: URL?) -> URLError {
        if let localError { return localError }
        var userInfo: [String: Any] = [
            NSLocalizedDescriptionKey: description,
            URLError.curlCodeKey: Int(code.rawValue),
        ]
        if let failingURL {
            userInfo[NSURLErrorFailingURLErrorKey] = failingURL
        }
        var errorCode = Self.urlErrorCode(for: code)
        let scheme = failingURL?.scheme?.lowercased()
        if code == CURLE_UNSUPPORTED_PROTOCOL, scheme == "http" || scheme == "https" {
            // curl says this of an answer that is not HTTP at all (HTTP/0.9).
            errorCode = .badServerResponse
        }
        return URLError(errorCode, userInfo: userInfo)
    }

    var description: String {
        let summary = String(cString: curl_easy_strerror(code))
        guard let message, !message.isEmpty else { return summary }
        // curl's message often ends with the summary already: said once.
        return message.contains(summary) ? message : "\(summary): \(message)"
    }

    static func urlErrorCode(for code: CURLcode) -> URLError.Code {
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST:
            .cannotFindHost
        case CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT:
            .cannotConnectToHost
        case CURLE_OPERATION_TIMEDOUT:
            .timedOut
        case CURLE_UNSUPPORTED_PROTOCOL:
            .unsupportedURL
        case CURLE_URL_MALFORMAT:
            .badURL
        case CURLE_FILE_COULDNT_READ_FILE:
            .fileDoesNotExist
        case CURLE_PEER_FAILED_VERIFICATION:
            .serverCertificateUntrusted
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_ENGINE_NOTFOUND,
             CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_SHUTDOWN_FAILED,
             CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT:
            .secureConnectionFailed
        case CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_HTTP2,
             CURLE_HTTP2_STREAM, CURLE_HTTP3, CURLE_QUIC_CONNECT_ERROR:
            .networkConnectionLost
        case CURLE_WEIRD_SERVER_REPLY:
            .badServerResponse
        case CURLE_TOO_MANY_REDIRECTS:
            .httpTooManyRedirects
        case CURLE_BAD_CONTENT_ENCODING:
            .cannotDecodeContentData
        case CURLE_FILESIZE_EXCEEDED:
            .dataLengthExceedsMaximum
        case CURLE_OUT_OF_MEMORY:
            .cannotLoadFromNetwork
        case CURLE_ABORTED_BY_CALLBACK:
            .cancelled
        default:
            .unknown
        }
    }
}

extension URLError {
    /// The `userInfo` key of the curl code behind a failure curl reported (`af` words those
    /// failures itself).
    package static let curlCodeKey = "AFCurlErrorCode"
}
