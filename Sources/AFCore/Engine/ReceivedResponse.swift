import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response as received (its head and URL) and the `HTTPURLResponse` made of it the first time
/// someone asks, from any thread: one object, the same for every reader. Building that object
/// costs about as much as curl's whole exchange, so AF's own validation, serializers, redirects,
/// cache, metrics and retry policies read the head and never ask. A response that arrives as an
/// object (from a user, or Foundation) is read through the object.
final class ReceivedResponse: Sendable {
    /// The head as received; nil when the response was given as an object.
    private let head: ResponseHead?
    let url: URL
    /// Set once, by whichever reader builds it first (kept inline: no lock object per response).
    private let built = AtomicLazyReference<HTTPURLResponse>()

    init(head: ResponseHead, url: URL) {
        self.head = head
        self.url = url
    }

    /// A response that is already an object.
    init(_ response: HTTPURLResponse) {
        head = nil
        url = response.url ?? URL(fileURLWithPath: "/")
        _ = built.storeIfNil(response)
    }

    var statusCode: Int { head?.statusCode ?? httpResponse.statusCode }

    /// The first value of the header field `name` (ASCII case-insensitive).
    func value(for name: String) -> String? {
        guard let head else { return httpResponse.value(forHTTPHeaderField: name) }
        return head.value(for: name)
    }

    /// Whether the response has a field `name` (ASCII case-insensitive).
    func contains(_ name: String) -> Bool {
        guard let head else { return httpResponse.value(forHTTPHeaderField: name) != nil }
        return head.contains(name)
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
    /// Readers racing to build it first may each build one; the first stored is the one every
    /// reader gets, then and after.
    var httpResponse: HTTPURLResponse {
        if let made = built.load() { return made }
        // Only a head-made response gets here unbuilt.
        let head = head ?? ResponseHead(statusCode: 0, httpVersion: "HTTP/1.1", headers: [])
        let made = head.httpResponse(for: url)
            ?? HTTPURLResponse(url: url, statusCode: head.statusCode, httpVersion: head.httpVersion, headerFields: nil)!
        return built.storeIfNil(made)
    }

    /// Whether the object exists yet (for tests that count constructions).
    var isBuilt: Bool { built.load() != nil }
}
