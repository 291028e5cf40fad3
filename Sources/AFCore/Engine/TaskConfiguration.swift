import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a Session's tasks take from its `URLSessionConfiguration`, read once when the Session is
/// made and never changed. A class: every task holds it, and a reference costs one retain where a
/// copy of the struct retained each of its members.
final class TaskConfiguration: @unchecked Sendable {
    /// Redirect hops followed before failing with `URLError.httpTooManyRedirects`.
    static let maximumRedirects = 16
    /// A streamed response (a `DataStreamRequest`'s) is stored in the HTTP cache only up to this
    /// size: its body is copied while it streams, and the copy is dropped past it.
    static let streamCopyLimit = 16 << 20

    let idleTimeout: TimeInterval
    let resourceTimeout: TimeInterval
    /// The configuration's `httpAdditionalHeaders`, each with its line in curl's form (built once).
    let additionalHeaders: [(name: String, value: String, line: String)]
    /// The first of `additionalHeaders` that must not be sent (checked once): every request fails.
    let additionalHeadersProblem: UnsafeRequestError?
    /// The lines of `additionalHeaders`, the whole header list of a request with none of its
    /// own: one array for all of them, which a pooled handle recognises without comparing lines.
    let additionalHeaderLines: [String]
    let cookieStorage: HTTPCookieStorage?
    /// The app's `URLProtocol` classes, which serve the requests they accept.
    let protocolClasses: ProtocolClasses
    /// Where credentials for a server's challenge are looked up when a request has none.
    let credentialStorage: URLCredentialStorage?
    let shouldSetCookies: Bool
    let acceptsCookies: Bool
    let httpVersion: HTTPVersionPolicy
    let decompressionLimit: DecompressionLimit?
    let caFile: String?
    let caPath: String?
    let proxies: ProxySettings
    /// The Unix domain socket `http`/`https` requests go to (`configuration.af.unixSocketPath`).
    let unixSocketPath: String?
    /// Whether a task that finds no network path waits for one (`configuration.af.waitsForConnectivity`).
    let waitsForConnectivity: Bool
    /// The configuration's `urlCache` as AF's engine uses it (see `FoundationCacheStorage.storage(for:)`).
    let responseCache: (any ResponseCacheStorage)?
    /// The same cache when it supports HTTP caching semantics (a Foundation `URLCache`, AFCache's).
    var httpCache: (any HTTPCacheStorage)? { responseCache as? any HTTPCacheStorage }
    /// The configuration's cache policy, for requests that leave theirs at the default.
    let requestCachePolicy: URLRequest.CachePolicy
    /// The session's trust manager, asked for each HTTPS hop's evaluator.
    let serverTrustManager: ServerTrustManager?
    /// The URLs the session's requests went to lately, each worked out once.
    let knownURLs: KnownURLCache
    /// What the standing options of every hop share.
    private let sharedOptions: StandingOptions.Shared
    /// The standing options of the session's hops over HTTP and HTTPS with the session's idle
    /// timeout and no socket of their own: most hops, which then need none worked out.
    private let usualStandingOptions: (http: StandingOptions, https: StandingOptions)
    /// The standing options other hops asked for last.
    private let otherStandingOptions = StandingOptions.Cache()

    init(_ configuration: URLSessionConfiguration, environment: [String: String] = ProcessInfo.processInfo.environment,
         serverTrustManager: ServerTrustManager? = nil, httpVersion: HTTPVersionPolicy = .automatic,
         decompressionLimit: DecompressionLimit? = .default) {
        idleTimeout = configuration.timeoutIntervalForRequest
        resourceTimeout = configuration.timeoutIntervalForResource
        additionalHeaders = (configuration.httpAdditionalHeaders ?? [:]).compactMap { key, value in
            guard let name = key as? String else { return nil }
            let value = "\(value)"
            return (name, value, Self.headerLine(name: name, value: value))
        }
        additionalHeadersProblem = additionalHeaders.lazy.compactMap { WireRules.problem(name: $0.name, value: $0.value) }.first
        additionalHeaderLines = additionalHeaders.map(\.line)
        cookieStorage = configuration.httpCookieStorage
        credentialStorage = configuration.urlCredentialStorage
        protocolClasses = ProtocolClasses(configuration.protocolClasses)
        shouldSetCookies = configuration.httpShouldSetCookies
        acceptsCookies = configuration.httpCookieAcceptPolicy != .never
        self.httpVersion = httpVersion
        self.decompressionLimit = decompressionLimit
        self.serverTrustManager = serverTrustManager
        caFile = environment["SSL_CERT_FILE"]
        caPath = environment["SSL_CERT_DIR"]
        responseCache = FoundationCacheStorage.storage(for: configuration.urlCache)
        requestCachePolicy = configuration.requestCachePolicy
        let proxies = ProxySettings(dictionary: configuration.connectionProxyDictionary, environment: environment)
        self.proxies = proxies
        unixSocketPath = configuration.af.unixSocketPath
        knownURLs = KnownURLCache(sessionSocket: unixSocketPath)
        waitsForConnectivity = configuration.af.waitsForConnectivity
        let shared = StandingOptions.Shared(httpVersion: httpVersion, resourceTimeout: resourceTimeout,
                                            noProxy: proxies.noProxy, caFile: caFile, caPath: caPath)
        sharedOptions = shared
        let idleTimeout = idleTimeout
        let usual = { (scheme: String) in
            StandingOptions(.init(shared, scheme: scheme, idleTimeout: idleTimeout, proxy: proxies.proxy(forScheme: scheme),
                                  unixSocketPath: nil))
        }
        usualStandingOptions = (usual("http"), usual("https"))
    }

    /// The standing options of a hop to a URL of `scheme` (as sent on the wire) with
    /// `idleTimeout`, through the Unix domain socket at `socketPath` if given.
    func standingOptions(scheme: String?, idleTimeout: TimeInterval, socketPath: String?) -> StandingOptions {
        if socketPath == nil, idleTimeout == self.idleTimeout, let scheme {
            if scheme.equalsIgnoringASCIICase("https") { return usualStandingOptions.https }
            if scheme.equalsIgnoringASCIICase("http") { return usualStandingOptions.http }
        }
        let proxy = socketPath == nil ? proxies.proxy(forScheme: scheme) : ""
        return otherStandingOptions.options(for: .init(sharedOptions, scheme: scheme, idleTimeout: idleTimeout, proxy: proxy,
                                                       unixSocketPath: socketPath))
    }

    /// The transfer for one hop of `request`.
    func transferSpec(for request: URLRequest, credential: HTTPCredential? = nil,
                      upload: TransferUpload? = nil, download: DownloadTarget? = nil) -> TransferSpec {
        let url = request.url
        var requestHeaders = request.allHTTPHeaderFields ?? [:]
        if shouldSetCookies, request.httpShouldHandleCookies, let url, let cookieStorage, !Self.isEmpty(cookieStorage),
           !requestHeaders.keys.contains(where: { $0.equalsIgnoringASCIICase("Cookie") }),
           case let cookies = Self.sendable(cookieStorage.cookies(for: url) ?? [], to: url), !cookies.isEmpty {
            requestHeaders.merge(HTTPCookie.requestHeaderFields(with: cookies)) { current, _ in current }
        }
        var unsafe = additionalHeadersProblem
        let lines: [String]
        if requestHeaders.isEmpty {
            lines = additionalHeaderLines
        } else {
            var own: [String] = []
            own.reserveCapacity(requestHeaders.count + additionalHeaders.count)
            for (name, value) in requestHeaders {
                if unsafe == nil { unsafe = WireRules.problem(name: name, value: value) }
                own.append(Self.headerLine(name: name, value: value))
            }
            // The request's own headers win over the configuration's (names compare case-insensitively).
            for header in additionalHeaders
            where !requestHeaders.keys.contains(where: { $0.equalsIgnoringASCIICase(header.name) }) {
                own.append(header.line)
            }
            lines = own
        }
        let method = request.httpMethod ?? "GET"
        let known = knownURLs.known(url)
        let socketRoute = known.socketRoute
        if unsafe == nil { unsafe = WireRules.problem(method: method, urlIsClean: known.isClean) }
        let requestTimeout = request.timeoutInterval
        let hopIdleTimeout = requestTimeout > 0 ? min(idleTimeout, requestTimeout) : idleTimeout
        return TransferSpec(
            url: known.wireURL,
            requestURL: url,
            method: method,
            headerLines: lines,
            body: upload?.data ?? request.httpBody,
            uploadFile: upload?.fileURL,
            uploadStream: upload?.stream,
            uploadSegments: upload?.segments,
            download: download,
            idleTimeout: hopIdleTimeout,
            decompressionLimit: decompressionLimit,
            standing: standingOptions(scheme: socketRoute?.wireScheme ?? known.scheme, idleTimeout: hopIdleTimeout,
                                      socketPath: socketRoute?.socketPath),
            credential: credential,
            unsafe: unsafe,
            target: known.target,
            parsedURL: known.parsed
        )
    }

    /// The cache policy for `request`: its own, unless left at the default.
    func cachePolicy(for request: URLRequest) -> URLRequest.CachePolicy {
        request.cachePolicy == .useProtocolCachePolicy ? requestCachePolicy : request.cachePolicy
    }

    /// How the TLS handshake of an exchange with `url` is judged: by the manager's evaluator for
    /// its host, by OpenSSL alone (nil), or not at all (the manager refused the host). Calls the
    /// manager: never under a lock of AF's.
    func trustRequirement(for url: URL?) -> TrustRequirement? {
        guard let serverTrustManager, let host = UnixSocketRoute.verifiedHost(for: url) else { return nil }
        do {
            return try serverTrustManager.serverTrustEvaluator(forHost: host).map { .evaluate($0, host: host) }
        } catch {
            return .refuse(error.asAFError(or: .serverTrustEvaluationFailed(reason: .customEvaluationFailed(error: error))))
        }
    }

    /// Whether `storage` certainly holds no cookie: asked before looking one up for a URL, which
    /// costs about twice as much (the URL's host is parsed, the matches filtered); a store that
    /// holds cookies pays both. Only Foundation's own storage class is asked so: a subclass
    /// could make cookies per URL.
    static func isEmpty(_ storage: HTTPCookieStorage) -> Bool {
        type(of: storage) == HTTPCookieStorage.self && storage.cookies?.isEmpty != false
    }

    /// The cookies among `cookies` that may go to `url`: a `Secure` cookie goes only over HTTPS.
    static func sendable(_ cookies: [HTTPCookie], to url: URL) -> [HTTPCookie] {
        url.scheme?.lowercased() == "https" ? cookies : cookies.filter { !$0.isSecure }
    }

    /// Stores the cookies `response` sets, when the configuration accepts cookies. A `Secure`
    /// cookie set over plain HTTP is ignored (RFC 6265bis §5.7): such a response could be anyone's.
    func storeCookies(from received: ReceivedResponse) {
        guard acceptsCookies, received.contains("Set-Cookie"), let cookieStorage else { return }
        let url = received.url
        // One field at a time: an Expires date holds a comma, so joined fields are ambiguous.
        let parsed = received.values(for: "Set-Cookie").compactMap(SetCookieField.readable).flatMap { value in
            HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": value], for: url)
        }
        let cookies = Self.sendable(parsed, to: url)
        if !cookies.isEmpty {
            cookieStorage.setCookies(cookies, for: url, mainDocumentURL: nil)
        }
    }

    private static func headerLine(name: String, value: String) -> String {
        value.isEmpty ? "\(name);" : "\(name): \(value)"
    }
}
