import Foundation

/// The URLs that the strings last handed to `String.asURL()` made, so that a string used again
/// (an app calling the same endpoints) is not parsed again: parsing a URL and reading its host
/// to check it cost 4–7k instructions, comparing with a kept string a few dozen.
///
/// Strings are compared byte for byte, not as Swift compares them (canonical equivalence): two
/// spellings of "é" are equal Strings but make different URLs. Only valid URLs are kept, from
/// strings of at most `maximumLength` bytes, a few at a time, the oldest replaced first.
final class StringURLMemo: Sendable {
    /// The memo `String.asURL()` uses.
    static let shared = StringURLMemo()

    static let capacity = 4
    static let maximumLength = 2_048

    private struct Slots {
        var entries: [(string: String, url: URL)] = []
        /// The slot the next string replaces once all are used.
        var next = 0
    }

    private let slots = Protected(Slots())

    /// The URL kept for `string`, if one is.
    func url(for string: String) -> URL? {
        string.withUTF8Bytes { wanted in
            slots.withLock { slots in
                slots.entries.first { entry in entry.string.withUTF8Bytes { Self.equal($0, wanted) } }?.url
            }
        }
    }

    /// Keeps `url` as what `string` makes.
    func keep(_ url: URL, for string: String) {
        guard string.utf8.count <= Self.maximumLength else { return }
        slots.withLock { slots in
            if slots.entries.count < Self.capacity {
                slots.entries.append((string, url))
            } else {
                slots.entries[slots.next] = (string, url)
                slots.next = (slots.next + 1) % Self.capacity
            }
        }
    }

    private static func equal(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
        return memcmp(left, right, lhs.count) == 0
    }
}
