import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response as received (its head and URL) and the `HTTPURLResponse` made of it the first time
/// someone asks, once, from any thread. Building that object costs about as much as curl's whole
/// exchange, so AF's own validation, serializers, redirects, cache, metrics and retry policies
/// read the head and never ask. A response that arrives as an object (from a user, or Foundation)
/// is read through the object.
final class ReceivedResponse: Sendable {
    /// The head as received; nil when the response was given as an object.
    private let head: ResponseHead?
    let url: URL
    /// `Protected` (a pthread mutex) rather than `Mutex`: the thread sanitizer sees pthread locking only.
    private let built: Protected<HTTPURLResponse?>

    init(head: ResponseHead, url: URL) {
        self.head = head
        self.url = url
        built = Protected(nil)
    }

    /// A response that is already an object.
    init(_ response: HTTPURLResponse) {
        head = nil
        url = response.url ?? URL(fileURLWithPath: "/")
        built = Protected(response)
    }

    var statusCode: Int { head?.statusCode ?? httpResponse.statusCode }

    /// The first value of the header field `name` (ASCII case-insensitive).
    func value(for name: String) -> String? {
        guard let head else { return httpResponse.value(forHTTPHeaderField: name) }
        return head.value(for: name)
    }

    /// Every value of the field `name`, one per line received (a built object's joined value,
    /// when there is no head).
    func values(for name: String) -> [String] {
        guard let head else { return httpResponse.value(forHTTPHeaderField: name).map { [$0] } ?? [] }
        return head.headers.filter { $0.name.equalsIgnoringASCIICase(name) }.map(\.value)
    }

    /// The header fields (as received, or as the object has them).
    var headers: HTTPHeaders {
        guard let head else { return httpResponse.headers }
        return HTTPHeaders(head.headers.map { HTTPHeader(name: $0.name, value: $0.value) })
    }

    /// The response as Foundation's object, built on first use.
    var httpResponse: HTTPURLResponse {
        built.withLock { built in
            if let built { return built }
            // Only a head-made response gets here unbuilt.
            let head = head ?? ResponseHead(statusCode: 0, httpVersion: "HTTP/1.1", headers: [])
            let made = head.httpResponse(for: url)
                ?? HTTPURLResponse(url: url, statusCode: head.statusCode, httpVersion: head.httpVersion, headerFields: nil)!
            built = made
            return made
        }
    }

    /// Whether the object exists yet (for tests that count constructions).
    var isBuilt: Bool { built.withLock { $0 != nil } }
}
