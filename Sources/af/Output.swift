import AFCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What `af` prints: the body on standard output; status line, headers, timings and errors on
/// standard error when asked or needed.
struct Output {
    /// A usage error: what is wrong and where help is (as curl says it), status 2.
    func usage(_ error: Invocation.UsageError) -> Int32 {
        note("af: \(error.description)")
        note("af: try 'af --help' for more")
        return 2
    }

    func failure(_ message: String, status: Int32) -> Int32 {
        note("af: \(message)")
        return status
    }

    func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Prints the response (the body to standard output); the exit status.
    func response(_ response: AFDataResponse<Data>, verbose: Bool, requireHTTP2: Bool, sessionHeaders: HTTPHeaders) -> Int32 {
        let transaction = response.metrics?.transactionMetrics.last
        if verbose, let request = response.request { self.request(request, sessionHeaders: sessionHeaders) }
        if let http = response.response {
            note("\(transaction?.networkProtocolName ?? "HTTP") \(http.statusCode) \(HTTPURLResponse.localizedString(forStatusCode: http.statusCode))")
            if verbose { headers(http) }
        }
        if verbose, let metrics = response.metrics { timings(metrics) }
        if let data = response.data, !data.isEmpty {
            FileHandle.standardOutput.write(data)
            if data.last != UInt8(ascii: "\n") { FileHandle.standardOutput.write(Data("\n".utf8)) }
        }
        if let error = response.error {
            // --retry turns 5xx answers into errors (to retry them); the last one is still an answer.
            if case .responseValidationFailed(.unacceptableStatusCode) = error { return Self.status(for: response.response?.statusCode) }
            return failure(describe(error, verbose: verbose), status: 3)
        }
        if requireHTTP2, transaction?.networkProtocolName != "h2" {
            return failure("--http2: the exchange used \(transaction?.networkProtocolName ?? "no protocol"), not HTTP/2", status: 3)
        }
        return Self.status(for: response.response?.statusCode)
    }

    /// The response's header fields, made printable.
    func headers(_ response: HTTPURLResponse) {
        for header in response.headers.sorted() { note("\(Self.printable(header.name)): \(Self.printable(header.value))") }
    }

    static func status(for code: Int?) -> Int32 {
        switch code ?? 0 {
        case 400..<500: 4
        case 500..<600: 5
        default: 0
        }
    }

    /// The request as sent: its header fields with the session's it did not override.
    func request(_ request: URLRequest, sessionHeaders: HTTPHeaders) {
        note("> \(request.httpMethod ?? "GET") \(Self.printable(request.url?.absoluteString ?? ""))")
        var headers = sessionHeaders
        for header in request.headers { headers.update(header) }
        for header in headers.sorted() { note("> \(Self.printable(header.name)): \(Self.printable(header.value))") }
    }

    /// `text` with control characters shown as escapes (`\x1B`): a server's header value must
    /// not drive the terminal (set its title, clear the screen).
    static func printable(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 && scalar != "\t" || (0x7F...0x9F).contains(scalar.value) {
                result += String(format: "\\x%02X", scalar.value)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    func timings(_ metrics: TaskMetrics) {
        for (index, transaction) in metrics.transactionMetrics.enumerated() {
            func ms(_ seconds: TimeInterval?) -> String { seconds.map { String(format: "%.1f ms", $0 * 1000) } ?? "-" }
            let source = switch transaction.resourceFetchType {
            case .networkLoad: transaction.isReusedConnection ? "network, reused connection" : "network"
            case .localCache: "cache"
            case .revalidatedCache: "cache, revalidated"
            }
            note("* exchange \(index + 1) (\(source)): DNS \(ms(transaction.domainLookupDuration)), connect \(ms(transaction.connectDuration)), TLS \(ms(transaction.secureConnectionDuration)), first byte \(ms(transaction.timeToFirstByte)), total \(ms(transaction.totalDuration))")
        }
    }

    /// The error in one sentence: what went wrong, in AF's words; with `verbose`, curl's own
    /// detail follows on a line of its own. Errors AF words itself (a Unix socket, a file) are
    /// said as they are.
    func describe(_ error: AFError, verbose: Bool) -> String {
        guard case let .sessionTaskFailed(underlying) = error, let urlError = underlying as? URLError else {
            return error.localizedDescription
        }
        let unixSocket = urlError.failingURL?.scheme?.hasSuffix("+unix") == true  // AF names the socket
        guard urlError.userInfo[URLError.curlCodeKey] != nil, !unixSocket else { return urlError.localizedDescription }
        let host = urlError.failingURL?.host.map { " (\($0))" } ?? ""
        let summary = Self.summary(of: urlError.code).map { $0 + host } ?? urlError.localizedDescription
        guard verbose, summary != urlError.localizedDescription else { return summary }
        return summary + "\naf: detail: " + urlError.localizedDescription
    }

    /// What a URL error means, for the common ones.
    static func summary(of code: URLError.Code) -> String? {
        switch code {
        case .cannotConnectToHost: "cannot connect to the server"
        case .cannotFindHost, .dnsLookupFailed: "cannot find the server"
        case .timedOut: "the server did not answer in time"
        case .networkConnectionLost: "the connection was lost"
        case .notConnectedToInternet: "no network"
        case .secureConnectionFailed: "the TLS handshake failed"
        case .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
             .serverCertificateHasUnknownRoot: "the server's certificate is not trusted"
        case .badServerResponse: "the server's answer is not HTTP"
        case .unsupportedURL: "unsupported URL: only http, https and file URLs can be fetched"
        case .httpTooManyRedirects: "too many redirects"
        case .dataLengthExceedsMaximum: "the body expands past the decompression limit"
        case .cancelled: "cancelled"
        default: nil
        }
    }
}
