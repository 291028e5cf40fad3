import Foundation

/// The URLs a session's requests went to lately, each worked out once (see `KnownURL`): a client
/// that calls the same endpoints again and again reads and parses each URL once instead of per
/// request. Curl only reads a parsed URL (it copies it at each attempt to connect), so transfers
/// running side by side may share one. Bounded: when full it starts again empty.
final class KnownURLCache: Sendable {
    private let entries = Protected<[String: KnownURL]>([:])
    private let capacity: Int
    /// The socket the session sends its `http`/`https` requests to, if any (part of every entry).
    private let sessionSocket: String?

    init(capacity: Int = 32, sessionSocket: String? = nil) {
        self.capacity = capacity
        self.sessionSocket = sessionSocket
    }

    /// What `url` leads to, from the cache or worked out now (and kept).
    func known(_ url: URL?) -> KnownURL {
        guard let key = url?.absoluteString else { return KnownURL(url, sessionSocket: sessionSocket) }
        if let cached = entries.withLock({ $0[key] }) { return cached }
        // Worked out outside the lock: two threads may both do it for a URL first seen at once.
        let known = KnownURL(url, sessionSocket: sessionSocket)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = known
        }
        return known
    }
}
