import AFCore
import Foundation

/// Recently used entries kept in memory by URL and credential partition, least recently used
/// dropped first. An entry larger than a twentieth of the capacity is never held, so large bodies
/// stay on disk. Finding, using and dropping an entry take constant time, whatever the number held:
/// the keys are linked in order of use.
struct MemoryLayer {
    struct Key: Hashable {
        var url: URL
        var partition: String
    }

    /// One key's variants, and its neighbours in the order of use.
    private struct Slot {
        let key: Key
        let variants: [HTTPCacheEntry]
        let size: Int
        /// The slot used just before this one, and the one used just after.
        var older: Int?
        var newer: Int?
    }

    var capacity: Int {
        didSet { trim() }
    }
    private(set) var usage = 0
    private var slots: [Slot?] = []
    /// Emptied slots, for the next entries.
    private var freeSlots: [Int] = []
    private var slotOfKey: [Key: Int] = [:]
    private var oldest: Int?
    private var newest: Int?

    init(capacity: Int) {
        self.capacity = capacity
    }

    mutating func entries(for key: Key) -> [HTTPCacheEntry]? {
        guard let slot = slotOfKey[key] else { return nil }
        if slot != newest {
            unlink(slot)
            link(asNewest: slot)
        }
        return slots[slot]?.variants
    }

    /// Holds what the disk has for `key` (all its variants), when it is small enough.
    mutating func hold(_ variants: [HTTPCacheEntry], for key: Key) {
        remove(key)
        let size = variants.reduce(0) { $0 + Self.heldSize(of: $1) }
        guard !variants.isEmpty, size <= capacity / 20 else { return }
        let filled = Slot(key: key, variants: variants, size: size)
        let slot: Int
        if let reused = freeSlots.popLast() {
            slots[reused] = filled
            slot = reused
        } else {
            slots.append(filled)
            slot = slots.count - 1
        }
        link(asNewest: slot)
        slotOfKey[key] = slot
        usage += size
        trim()
    }

    mutating func remove(_ key: Key) {
        guard let slot = slotOfKey.removeValue(forKey: key), let removed = slots[slot] else { return }
        unlink(slot)
        slots[slot] = nil
        freeSlots.append(slot)
        usage -= removed.size
    }

    /// Forgets `url` in every partition.
    mutating func remove(_ url: URL) {
        for key in slotOfKey.keys.filter({ $0.url == url }) { remove(key) }
    }

    mutating func removeAll() {
        slots = []
        freeSlots = []
        slotOfKey = [:]
        (oldest, newest) = (nil, nil)
        usage = 0
    }

    private mutating func link(asNewest slot: Int) {
        slots[slot]?.older = newest
        slots[slot]?.newer = nil
        if let previous = newest { slots[previous]?.newer = slot } else { oldest = slot }
        newest = slot
    }

    private mutating func unlink(_ slot: Int) {
        let (older, newer) = (slots[slot]?.older, slots[slot]?.newer)
        if let older { slots[older]?.newer = newer } else { oldest = newer }
        if let newer { slots[newer]?.older = older } else { newest = older }
    }

    private mutating func trim() {
        while usage > capacity, let first = oldest, let key = slots[first]?.key {
            remove(key)
        }
    }

    /// The bytes of an entry's body and fields.
    static func size(of entry: HTTPCacheEntry) -> Int {
        entry.body.count + entry.headers.fieldBytes
    }

    /// What holding an entry costs: its size and what is parsed from its fields.
    static func heldSize(of entry: HTTPCacheEntry) -> Int {
        size(of: entry) + entry.parsedSize
    }
}
