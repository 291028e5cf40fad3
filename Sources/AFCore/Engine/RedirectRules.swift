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

    /// The next request for `response` to `request`, or `nil` when the response is no redirect.
    static func nextRequest(after request: URLRequest, response: ReceivedResponse) -> URLRequest? {
        guard redirectStatusCodes.contains(response.statusCode),
              let location = response.value(for: "Location"),
              let current = request.url,
              let target = URL(string: location, relativeTo: current)?.absoluteURL,
              let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return nil
        }

        var next = request
        next.url = target
        let method = request.httpMethod ?? "GET"
        let becomesGET = (response.statusCode == 303 && method != "HEAD")
            || ([301, 302].contains(response.statusCode) && method == "POST")
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
