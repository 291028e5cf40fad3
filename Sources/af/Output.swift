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

    /// `--help`: the usage text on standard output, status 0.
    func help() -> Int32 {
        FileHandle.standardOutput.write(Data((Invocation.usage + "\n").utf8))
        return 0
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
            return failure(describe(error), status: 3)
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

    /// The error in words: AF's reason and, when there is one, the underlying error's.
    func describe(_ error: AFError) -> String {
        if case let .sessionTaskFailed(underlying) = error { return underlying.localizedDescription }
        return error.localizedDescription
    }
}
