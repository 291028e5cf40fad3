import AFCore
import ArgumentParser
import Foundation

/// `af`'s command line as swift-argument-parser reads it: options, help, `--version` and shell
/// completion scripts (`--generate-completion-script bash|zsh|fish`). httpie's positional form,
/// `[METHOD] URL [ITEM ...]`, is read by `Invocation.take(_:)`.
struct Command: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "af",
        abstract: "An httpie-style HTTP client over AF.",
        usage: "af [options] [METHOD] URL [ITEM ...]\n       af demo",
        discussion: """
            URL: http:// is added when no scheme is given; :8080/path is http://localhost:8080/path.

            ITEM, as httpie writes them:
              Name:Value          a request header
              name==value         a query parameter
              field=value         a body field (a JSON string, or a form field with --form)
              field:=json         a body field with a raw JSON value (number, true, [..], {..})
              field@path          a file part (multipart/form-data)

            With POST, PUT, PATCH, DELETE or QUERY given and no body item, a body piped to standard
            input is sent (as JSON when it is JSON).

            Exit status: 0 success (status below 400), 4 a 4xx answer, 5 a 5xx answer, 2 a usage
            error, 3 a request that failed (network, TLS, timeout, --http2, a download answered
            with other than 2xx), 6 a local file problem, 130 an interrupted download.
            """,
        version: AFInfo.version)

    @Option(name: [.customShort("a"), .customShort("u"), .customLong("auth"), .customLong("user")],
            help: ArgumentHelp("Basic authentication.", valueName: "user:password"))
    var auth: String?

    @Flag(name: [.customShort("j"), .long], help: "JSON headers (Content-Type, Accept) even without fields.")
    var json = false

    @Flag(name: [.customShort("f"), .long], help: "Fields as application/x-www-form-urlencoded.")
    var form = false

    @Flag(help: "Fields and files as multipart/form-data.")
    var multipart = false

    @Flag(name: [.customShort("d"), .long], help: """
        Save the body to a file named by the URL's last segment, with a progress bar. An existing \
        file is kept (the new one gets -1, -2...); an answer other than 2xx is not saved; an \
        interrupted download (Ctrl-C, lost connection) resumes on the next run.
        """)
    var download = false

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Save the body to this file, replacing it (implies --download).",
                                                                 valueName: "file"))
    var output: String?

    @Flag(help: "Save a download's body whatever the status.")
    var downloadErrors = false

    @Option(help: ArgumentHelp("Send the file as the body, streamed from disk.", valueName: "file"))
    var upload: String?

    @Flag(help: "Never read a body from standard input.")
    var ignoreStdin = false

    @Option(help: ArgumentHelp("Keep an HTTP cache in this SQLite file.", valueName: "db"))
    var cache: String?

    @Option(help: ArgumentHelp("Trust the server only if its chain has this public key (repeatable).",
                               valueName: "sha256/base64"))
    var pin: [String] = []

    @Option(help: ArgumentHelp("Retry failures RetryPolicy retries, up to this many times.", valueName: "n"))
    var retry = 0

    @Option(help: ArgumentHelp("When the network is gone, wait for it and retry (60 s when given without a value).",
                               valueName: "seconds"))
    var waitForNetwork: Double?

    @Flag(help: "Speak HTTP/2: negotiated on https, with prior knowledge (h2c) on http; fail unless the exchange used it.")
    var http2 = false

    @Flag(name: .customLong("http1.1"), help: "Speak HTTP/1.1 only.")
    var http1 = false

    @Flag(name: [.short, .long], help: "Print the request and response headers and the timings.")
    var verbose = false

    @Option(help: ArgumentHelp("Give up on a request idle that long.", valueName: "seconds"))
    var timeout: Double?

    @Argument(help: ArgumentHelp("The method (GET when there is no body, else POST), the URL and the items.",
                                 valueName: "method-url-items"))
    var arguments: [String] = []

    /// The arguments as the parser takes them: `--wait-for-network` without a value is the
    /// default wait (the parser has no options whose value may be left out).
    static func normalized(_ arguments: [String]) -> [String] {
        arguments.map { $0 == "--wait-for-network" ? "--wait-for-network=60" : $0 }
    }

    func validate() throws {
        if let auth, !auth.contains(":") { throw ValidationError("--auth needs USER:PASSWORD") }
        if retry < 0 { throw ValidationError("--retry needs a count") }
        if let waitForNetwork, !(waitForNetwork > 0 && waitForNetwork <= Invocation.longestWait) {
            throw ValidationError("--wait-for-network= needs seconds, at most \(Int(Invocation.longestWait))")
        }
        if let timeout, !(timeout > 0 && timeout.isFinite) { throw ValidationError("--timeout needs seconds") }
    }

    /// What the command line asks for.
    func invocation() throws -> Invocation {
        var invocation = Invocation()
        invocation.form = form
        invocation.multipart = multipart
        invocation.download = download || output != nil
        invocation.output = output
        invocation.downloadErrors = downloadErrors
        invocation.upload = upload
        invocation.ignoreStdin = ignoreStdin
        invocation.cache = cache
        invocation.pins = pin
        invocation.retries = retry
        invocation.waitForNetwork = waitForNetwork
        invocation.http2 = http2
        invocation.http1 = http1
        invocation.verbose = verbose
        invocation.timeout = timeout
        invocation.credentials = auth
        invocation.json = json
        try invocation.take(arguments)
        return invocation
    }
}
