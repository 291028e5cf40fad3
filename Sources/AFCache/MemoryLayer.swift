import AFCore
import Foundation

/// Recently used entries kept in memory by URL and credential partition, least recently used
/// dropped first. An entry larger than a twentieth of the capacity is never held, so large bodies
/// stay on disk.
struct MemoryLayer {
    struct Key: Hashable {
        var url: URL
        var partition: String
    }

    var capacity: Int {
        didSet { trim() }
    }
    private(set) var usage = 0
    private var entries: [Key: [HTTPCacheEntry]] = [:]
    /// Keys, least recently used first.
    private var order: [Key] = []

    init(capacity: Int) {
        self.capacity = capacity
    }

    mutating func entries(for key: Key) -> [HTTPCacheEntry]? {
        guard let found = entries[key] else { return nil }
        touch(key)
        return found
    }

    /// Holds what the disk has for `key` (all its variants), when it is small enough.
    mutating func hold(_ variants: [HTTPCacheEntry], for key: Key) {
        remove(key)
        let size = variants.reduce(0) { $0 + Self.size(of: $1) }
        guard !variants.isEmpty, size <= capacity / 20 else { return }
        entries[key] = variants
        usage += size
        order.append(key)
        trim()
    }

    mutating func remove(_ key: Key) {
        guard let removed = entries.removeValue(forKey: key) else { return }
        usage -= removed.reduce(0) { $0 + Self.size(of: $1) }
        order.removeAll { $0 == key }
    }

    /// Forgets `url` in every partition.
    mutating func remove(_ url: URL) {
        for key in order where key.url == url { remove(key) }
    }

    mutating func removeAll() {
        entries = [:]
        order = []
        usage = 0
    }

    private mutating func touch(_ key: Key) {
        order.removeAll { $0 == key }
        order.append(key)
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
