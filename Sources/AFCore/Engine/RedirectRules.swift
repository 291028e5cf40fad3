import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The request a redirect leads to, built the way browsers and URLSession do.
enum RedirectRules {
    /// The status codes that redirect (with a Location).
    static let redirectStatusCodes: Set<Int> = [301, 302, 303, 307, 308]

    /// Headers that must not follow a request to another origin.
    static let originBoundHeaders = ["authorization", "cookie", "proxy-authorization"]

    /// What a redirect response asks for.
    enum Outcome {
        /// Send this request next.
        case follow(URLRequest)
        /// The target is not HTTP(S) (`file:`, `ftp:`…): the task fails with this error, as
        /// URLSession's does, instead of delivering the 3xx.
        case refuse(URLError)
    }

    /// What `response` to `request` redirects to, or `nil` when it is no redirect (or its
    /// Location is no URL).
    static func outcome(after request: URLRequest, response: ReceivedResponse) -> Outcome? {
        guard redirectStatusCodes.contains(response.statusCode),
              let location = response.value(for: "Location"),
              let current = request.url,
              let target = URL(string: location, relativeTo: current)?.absoluteURL else {
            return nil
        }
        // A socket URL only from the same socket: a server must not send a client to a local socket.
        let sameSocket = UnixSocketRoute.isSocketScheme(target.scheme) && UnixSocketRoute.isSocketScheme(current.scheme)
            && target.host == current.host
        guard let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https" || sameSocket else {
            return .refuse(URLError(.unsupportedURL, userInfo: [NSURLErrorFailingURLErrorKey: target,
                                                                 NSLocalizedDescriptionKey: "redirect to an unsupported URL"]))
        }
        return .follow(nextRequest(after: request, from: current, to: target, statusCode: response.statusCode))
    }

    /// The request that follows `request` (to `current`) to `target` on a `statusCode` redirect.
    private static func nextRequest(after request: URLRequest, from current: URL, to target: URL, statusCode: Int) -> URLRequest {
        var next = request
        next.url = target
        let method = request.httpMethod ?? "GET"
        let becomesGET = (statusCode == 303 && method != "HEAD") || ([301, 302].contains(statusCode) && method == "POST")
        if becomesGET {
            next.httpMethod = "GET"
            next.httpBody = nil
            next.setValue(nil, forHTTPHeaderField: "Content-Type")
            next.setValue(nil, forHTTPHeaderField: "Content-Length")
        }
        if !isSameOrigin(current, target) {
            for name in originBoundHeaders {
                next.setValue(nil, forHTTPHeaderField: name)
            }
        }
        return next
    }

    static func isSameOrigin(_ lhs: URL, _ rhs: URL) -> Bool {
        lhs.scheme?.lowercased() == rhs.scheme?.lowercased()
            && lhs.host?.lowercased() == rhs.host?.lowercased()
            && effectivePort(lhs) == effectivePort(rhs)
    }

    private static func effectivePort(_ url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
    }
}
