/// The URLs a session's transfers went to lately, parsed once each (see `ParsedURL`): a client
/// that calls the same endpoints again and again parses each URL once instead of per request.
/// Curl only reads a parsed URL (it copies it at each attempt to connect), so transfers running
/// side by side may share one. Bounded: when full it starts again empty.
final class ParsedURLCache: Sendable {
    private let entries = Protected<[String: ParsedURL]>([:])
    private let capacity: Int

    init(capacity: Int = 32) {
        self.capacity = capacity
    }

    /// `url` parsed, from the cache or parsed now (and kept); nil when curl's parser refuses it.
    func parsed(_ url: String) -> ParsedURL? {
        if let cached = entries.withLock({ $0[url] }) { return cached }
        // Parsed outside the lock: two threads may both parse a URL first seen at once.
        guard let parsed = ParsedURL(url) else { return nil }
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[url] = parsed
        }
        return parsed
    }
}
