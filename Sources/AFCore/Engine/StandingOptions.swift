import CCurl
import CCurlShim
import Foundation

/// The options most transfers of a session share (protocol, timeouts, proxy, CA files). A pooled
/// handle keeps them between plain transfers that ask for the same, instead of being cleared and
/// set again for every request: clearing and re-setting took a fifth of the engine thread's work
/// per small request. Immutable and shared: the session works out the usual ones once (see
/// `TaskConfiguration.standingOptions(scheme:idleTimeout:socketPath:)`) and its transfers that
/// ask for the same get the same object, so the engine thread compares and keeps them by reference.
final class StandingOptions: Equatable, Sendable {
    /// The options' values.
    struct Values: Equatable {
        var httpVersion: Int
        /// Wait for a connection to multiplex on rather than open another.
        var pipeWait = false
        /// Open a fresh connection and close it after the transfer (see `LibcurlQuirks`).
        var freshConnection = false
        var connectTimeoutMilliseconds = 0
        var lowSpeedTime = 0
        var timeoutMilliseconds = 0
        /// Proxy URL; "" connects directly.
        var proxy: String
        var noProxy: String?
        var caFile: String?
        var caPath: String?
        var unixSocketPath: String?

        /// The options of a hop to a URL of `scheme` (as sent on the wire) in a session with `shared`.
        init(_ shared: Shared, scheme: String?, idleTimeout: TimeInterval, proxy: String, unixSocketPath: String?) {
            httpVersion = switch shared.httpVersion {
            case .automatic: Int(CURL_HTTP_VERSION_2TLS)
            case .http1Only: Int(CURL_HTTP_VERSION_1_1)
            case .http2PriorKnowledge: Int(CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE)
            }
            let cleartextHTTP2 = shared.httpVersion.speaksHTTP2WithoutNegotiation(scheme: scheme)
            if cleartextHTTP2, LibcurlQuirks.breaksReusedPriorKnowledgeConnections {
                freshConnection = true
            } else if cleartextHTTP2 || scheme?.equalsIgnoringASCIICase("https") == true {
                // Waiting for a connection to multiplex on only makes sense where HTTP/2 may be
                // spoken: on cleartext HTTP/1.1 curl would queue behind a busy connection until
                // its response.
                pipeWait = true
            }
            // An idle timeout too long to count in milliseconds (an infinite one) is none.
            if idleTimeout > 0, idleTimeout < TimeInterval(Int.max / 1000) {
                connectTimeoutMilliseconds = Int(idleTimeout * 1000)
                lowSpeedTime = max(1, Int(idleTimeout.rounded(.up)))
            }
            if shared.resourceTimeout > 0, shared.resourceTimeout < TimeInterval(Int.max / 1000) {
                timeoutMilliseconds = Int(shared.resourceTimeout * 1000)
            }
            self.proxy = proxy
            noProxy = shared.noProxy
            caFile = shared.caFile
            caPath = shared.caPath
            self.unixSocketPath = unixSocketPath
        }
    }

    /// What every hop of a session shares, from its configuration.
    struct Shared {
        var httpVersion: HTTPVersionPolicy
        /// Whole-exchange timeout.
        var resourceTimeout: TimeInterval
        var noProxy: String?
        var caFile: String?
        var caPath: String?
    }

    let values: Values

    var pipeWait: Bool { values.pipeWait }
    var freshConnection: Bool { values.freshConnection }

    init(_ values: Values) {
        self.values = values
    }

    static func == (lhs: StandingOptions, rhs: StandingOptions) -> Bool {
        lhs === rhs || lhs.values == rhs.values
    }

    /// The options a session's transfers asked for last, among those the session did not work
    /// out beforehand, handed out again while they stay the same.
    final class Cache: Sendable {
        private let last = Protected<StandingOptions?>(nil)

        /// The options with `values`.
        func options(for values: Values) -> StandingOptions {
            last.withLock { last in
                if let last, last.values == values { return last }
                let made = StandingOptions(values)
                last = made
                return made
            }
        }
    }

    /// Sets these options on a handle that was just cleared.
    func apply(to handle: EasyHandle) {
        handle.set(CURLOPT_HTTP_VERSION, values.httpVersion)
        if values.freshConnection {
            handle.set(CURLOPT_FRESH_CONNECT, 1)
            handle.set(CURLOPT_FORBID_REUSE, 1)
        }
        if values.pipeWait { handle.set(CURLOPT_PIPEWAIT, 1) }
        if values.connectTimeoutMilliseconds > 0 {
            handle.set(CURLOPT_CONNECTTIMEOUT_MS, values.connectTimeoutMilliseconds)
            handle.set(CURLOPT_LOW_SPEED_LIMIT, 1)
            handle.set(CURLOPT_LOW_SPEED_TIME, values.lowSpeedTime)
        }
        if values.timeoutMilliseconds > 0 { handle.set(CURLOPT_TIMEOUT_MS, values.timeoutMilliseconds) }
        handle.set(CURLOPT_PROXY, string: values.proxy)
        // A proxy's answer to CONNECT (the tunnel for HTTPS) is not the response: URLSession
        // reports only the origin's.
        if !values.proxy.isEmpty { handle.set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1) }
        // Always set: left unset, curl reads `no_proxy` and `NO_PROXY` from the environment on
        // every transfer, although the session read its proxy settings once, environment included.
        handle.set(CURLOPT_NOPROXY, string: values.noProxy ?? "")
        if let caFile = values.caFile { handle.set(CURLOPT_CAINFO, string: caFile) }
        if let caPath = values.caPath { handle.set(CURLOPT_CAPATH, string: caPath) }
        if let unixSocketPath = values.unixSocketPath { handle.set(CURLOPT_UNIX_SOCKET_PATH, string: unixSocketPath) }
    }
}
