import Foundation

/// The URLs that strings recently handed to `String.asURL()` made, so that a string used again
/// (an app calling the same endpoints) is not parsed again: parsing a URL and reading its host
/// to check it costs thousands of instructions, comparing with a kept string a few dozen.
///
/// Strings are compared byte for byte, not as Swift compares them (canonical equivalence): two
/// spellings of "é" are equal Strings but make different URLs. Only valid URLs are kept, from
/// strings of at most `maximumLength` bytes without user info (an `@`: a password stays out of
/// the memo); the least recently used is replaced first. The memo is the process's, so the last
/// few URL strings stay in memory after the sessions that used them end.
final class StringURLMemo: Sendable {
    /// The memo `String.asURL()` uses.
    static let shared = StringURLMemo()

    /// How many strings are kept.
    static let capacity = 8
    /// The longest string kept, in UTF-8 bytes.
    static let maximumLength = 2_048

    private struct Entry {
        var string: String
        var url: URL
        /// When the entry was last kept or found, in `Slots.clock` ticks.
        var lastUse: UInt64
    }

    private struct Slots {
        var entries: [Entry] = []
        var clock: UInt64 = 0

        /// The position of the entry for `bytes`, if one is kept.
        func index(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
            entries.firstIndex { entry in entry.string.withUTF8Bytes { StringURLMemo.equal($0, bytes) } }
        }
    }

    private let slots = Protected(Slots())

    /// The URL kept for `string`, if one is.
    func url(for string: String) -> URL? {
        guard string.utf8.count <= Self.maximumLength else { return nil }
        return string.withUTF8Bytes { wanted in
            slots.withLock { slots -> URL? in
                guard let index = slots.index(of: wanted) else { return nil }
                slots.clock += 1
                slots.entries[index].lastUse = slots.clock
                return slots.entries[index].url
            }
        }
    }

    /// Keeps `url` as what `string` makes.
    func keep(_ url: URL, for string: String) {
        guard string.utf8.count <= Self.maximumLength else { return }
        string.withUTF8Bytes { bytes in
            guard !bytes.contains(UInt8(ascii: "@")) else { return }
            // A compact copy: the caller's string may hold spare capacity.
            let copy = String(decoding: bytes, as: UTF8.self)
            slots.withLock { slots in
                // Two threads may both have parsed the same string: it takes one slot.
                guard slots.index(of: bytes) == nil else { return }
                slots.clock += 1
                let entry = Entry(string: copy, url: url, lastUse: slots.clock)
                if slots.entries.count < Self.capacity {
                    slots.entries.append(entry)
                } else if let oldest = slots.entries.indices.min(by: { slots.entries[$0].lastUse < slots.entries[$1].lastUse }) {
                    slots.entries[oldest] = entry
                }
            }
        }
    }

    fileprivate static func equal(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
        return memcmp(left, right, lhs.count) == 0
    }
}
