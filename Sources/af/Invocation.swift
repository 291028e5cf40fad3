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

    static let usage = """
        usage: af [options] [METHOD] URL [ITEM ...]
               af demo

        URL: http:// is added when no scheme is given; :8080/path is http://localhost:8080/path.

        ITEM, as httpie writes them:
          Name:Value          a request header
          name==value         a query parameter
          field=value         a body field (a JSON string, or a form field with --form)
          field:=json         a body field with a raw JSON value (number, true, [..], {..})
          field@path          a file part (multipart/form-data)

        With POST, PUT, PATCH, DELETE or QUERY given and no body item, a body piped to
        standard input is sent (as JSON when it is JSON).

        options:
          -a, -u, --auth USER:PASSWORD
                                    Basic authentication
          -j, --json                JSON headers (Content-Type, Accept) even without fields
          -f, --form                fields as application/x-www-form-urlencoded
              --multipart           fields and files as multipart/form-data
          -d, --download            save the body to a file named by the URL, with a progress
                                    bar, never replacing a file; an interrupted download
                                    (Ctrl-C, lost connection) resumes on the next run
          -o, --output FILE         save the body to FILE (implies --download)
              --upload FILE         send FILE as the body, streamed from disk
              --ignore-stdin        never read a body from standard input
              --cache DB            keep an HTTP cache in the SQLite file DB
              --pin sha256/BASE64   trust the server only if its chain has this public key
                                    (repeatable)
              --retry N             retry failures RetryPolicy retries, up to N times
              --wait-for-network[=SECONDS]
                                    when the network is gone, wait for it (60 s) and retry
              --http2               speak HTTP/2: negotiated on https, with prior knowledge
                                    (h2c) on http; fail unless the exchange used it
              --http1.1             speak HTTP/1.1 only
          -v, --verbose             print the request and response headers and the timings
              --timeout SECONDS     give up on a request idle that long
          -h, --help

        exit status: 0 success (status below 400), 4 a 4xx answer, 5 a 5xx answer, 2 a usage
        error, 3 a request that failed (network, TLS, timeout, --http2), 6 a local file problem.
        """

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    /// `-h`: the usage text was asked for.
    struct HelpRequested: Error {}

    /// The longest `--wait-for-network=` wait, in seconds (a year).
    static let longestWait: TimeInterval = 31_536_000

    static let methods: Set<String> = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT", "QUERY"]

    /// Parses the arguments (without the program name).
    init(_ arguments: [String]) throws {
        var iterator = arguments.makeIterator()
        var positional: [String] = []
        func value(for option: String) throws -> String {
            guard let value = iterator.next() else { throw UsageError(description: "\(option) needs a value") }
            return value
        }
        while let argument = iterator.next() {
            switch argument {
            case "-f", "--form": form = true
            case "--multipart": multipart = true
            case "-d", "--download": download = true
            case "-o", "--output":
                output = try value(for: argument)
                download = true
            case "-a", "-u", "--auth", "--user":
                let given = try value(for: argument)
                guard given.contains(":") else { throw UsageError(description: "\(argument) needs USER:PASSWORD") }
                credentials = given
            case "-j", "--json": json = true
            case "--ignore-stdin": ignoreStdin = true
            case "--upload": upload = try value(for: argument)
            case "--cache": cache = try value(for: argument)
            case "--pin": pins.append(try value(for: argument))
            case "--retry":
                guard let count = Int(try value(for: argument)), count >= 0 else {
                    throw UsageError(description: "--retry needs a count")
                }
                retries = count
            case "--wait-for-network": waitForNetwork = 60
            case _ where argument.hasPrefix("--wait-for-network="):
                guard let seconds = TimeInterval(argument.dropFirst("--wait-for-network=".count)), seconds > 0,
                      seconds <= Self.longestWait else {
                    throw UsageError(description: "--wait-for-network= needs seconds, at most \(Int(Self.longestWait))")
                }
                waitForNetwork = seconds
            case "--http2": http2 = true
            case "--http1.1": http1 = true
            case "-v", "--verbose": verbose = true
            case "--timeout":
                guard let seconds = TimeInterval(try value(for: argument)), seconds > 0 else {
                    throw UsageError(description: "--timeout needs seconds")
                }
                timeout = seconds
            case "-h", "--help": throw HelpRequested()
            case _ where argument.hasPrefix("-") && argument.count > 1:
                throw UsageError(description: "unknown option \(argument)")
            default: positional.append(argument)
            }
        }
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
