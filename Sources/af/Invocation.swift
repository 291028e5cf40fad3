import AFCore
import Foundation

/// What the command line asked for.
struct Invocation {
    var method: String?
    var url = ""
    var items: [RequestItem] = []
    var form = false
    var multipart = false
    var download = false
    var output: String?
    var upload: String?
    var cache: String?
    var pins: [String] = []
    var retries = 0
    /// Seconds to wait for the network when a request fails for want of it; nil: do not wait.
    var waitForNetwork: TimeInterval?
    var http2 = false
    var http1 = false
    var verbose = false
    var timeout: TimeInterval?
    /// `USER:PASSWORD` for Basic authentication (`-a`, as httpie; `-u`, as curl).
    var credentials: String?
    /// JSON headers even without fields (`-j`, `--json`).
    var json = false
    /// Never read a body from standard input.
    var ignoreStdin = false
    /// Save a download's body whatever the status.
    var downloadErrors = false

    /// What is wrong with a command line, in one sentence.
    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    /// The longest `--wait-for-network=` wait, in seconds (a year).
    static let longestWait: TimeInterval = 31_536_000

    static let methods: Set<String> = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT", "QUERY"]

    /// What `positional` (`[METHOD] URL [ITEM ...]`) asks for, with the options already set.
    mutating func take(_ positional: [String]) throws {
        var positional = positional
        if let first = positional.first, Self.methods.contains(first.uppercased()) {
            method = first.uppercased()
            positional.removeFirst()
        }
        guard let url = positional.first else { throw UsageError(description: "no URL") }
        self.url = Self.completed(url)
        items = try positional.dropFirst().map(RequestItem.init)
        if items.contains(where: \.isFile) { multipart = true }
        if upload != nil, items.contains(where: \.isBodyField) {
            throw UsageError(description: "--upload sends a file as the body: it cannot also send fields")
        }
        if http1, http2 { throw UsageError(description: "--http1.1 and --http2 cannot both be given") }
        if download, upload != nil || multipart { throw UsageError(description: "--download is for GET-like requests") }
    }

    /// `url` with `http://` when it has no scheme, and httpie's localhost shorthand (`:8080/x`).
    static func completed(_ url: String) -> String {
        if url.contains("://") { return url }
        if url.hasPrefix(":") { return "http://localhost" + (url.dropFirst().first == "/" ? String(url.dropFirst()) : url) }
        return "http://" + url
    }

    /// The request's header fields: the items', then Basic authentication and JSON's, unless
    /// an item gave them.
    var headers: HTTPHeaders {
        var headers = RequestItem.headers(items)
        if let credentials, headers["Authorization"] == nil, let colon = credentials.firstIndex(of: ":") {
            headers.add(.authorization(username: String(credentials[..<colon]),
                                       password: String(credentials[credentials.index(after: colon)...])))
        }
        if json {
            if headers["Content-Type"] == nil { headers.add(.contentType("application/json")) }
            if headers["Accept"] == nil { headers.add(.accept("application/json, */*;q=0.5")) }
        }
        return headers
    }

    /// Methods whose body may come from standard input.
    static let bodyMethods: Set<String> = ["POST", "PUT", "PATCH", "DELETE", "QUERY"]

    /// Whether the body is read from standard input: a body method given, no body of another
    /// kind, and standard input not a terminal.
    var readsStdin: Bool {
        guard !ignoreStdin, upload == nil, !items.contains(where: \.isBodyField), let method,
              Self.bodyMethods.contains(method) else { return false }
        return isatty(STDIN_FILENO) == 0
    }

    /// The method: given, else POST when there is a body, else GET.
    var effectiveMethod: String {
        method ?? (upload != nil || items.contains(where: \.isBodyField) ? "POST" : "GET")
    }
}
