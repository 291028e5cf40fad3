import AFCore
import Foundation

/// Recently used entries kept in memory, least recently used dropped first. An entry larger than
/// a twentieth of the capacity is never held, so large bodies stay on disk.
struct MemoryLayer {
    var capacity: Int {
        didSet { trim() }
    }
    private(set) var usage = 0
    private var entries: [URL: [HTTPCacheEntry]] = [:]
    /// URLs, least recently used first.
    private var order: [URL] = []

    init(capacity: Int) {
        self.capacity = capacity
    }

    mutating func entries(for url: URL) -> [HTTPCacheEntry]? {
        guard let found = entries[url] else { return nil }
        touch(url)
        return found
    }

    /// Holds what the disk has for `url` (all its variants), when it is small enough.
    mutating func hold(_ variants: [HTTPCacheEntry], for url: URL) {
        remove(url)
        let size = variants.reduce(0) { $0 + Self.size(of: $1) }
        guard !variants.isEmpty, size <= capacity / 20 else { return }
        entries[url] = variants
        usage += size
        order.append(url)
        trim()
    }

    mutating func remove(_ url: URL) {
        guard let removed = entries.removeValue(forKey: url) else { return }
        usage -= removed.reduce(0) { $0 + Self.size(of: $1) }
        order.removeAll { $0 == url }
    }

    mutating func removeAll() {
        entries = [:]
        order = []
        usage = 0
    }

    private mutating func touch(_ url: URL) {
        order.removeAll { $0 == url }
        order.append(url)
    }

    private mutating func trim() {
        while usage > capacity, let oldest = order.first {
            remove(oldest)
        }
    }

    static func size(of entry: HTTPCacheEntry) -> Int {
        entry.body.count + entry.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
    }
}
