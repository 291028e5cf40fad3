import Foundation
import Synchronization

extension UUID {
    /// A version 4 UUID for a request's identity: distinct from every other one this process
    /// makes (a counter under a random mask), and from other processes' (a random prefix).
    /// Foundation's `UUID()` on Linux reads a device file each time and the system generator
    /// makes a syscall per word; both showed on the request hot path.
    static func fastRandom() -> UUID {
        let sequence = RequestIdentifiers.counter.wrappingAdd(1, ordering: .relaxed).oldValue
        var words = (RequestIdentifiers.prefix, (sequence ^ RequestIdentifiers.mask).bigEndian)
        return withUnsafeMutableBytes(of: &words) { raw in
            raw[6] = (raw[6] & 0x0F) | 0x40  // version 4
            raw[8] = (raw[8] & 0x3F) | 0x80  // RFC 4122 variant (over the counter's top two bits)
            return UUID(uuid: raw.load(as: uuid_t.self))
        }
    }
}

/// Per-process state behind `UUID.fastRandom()`.
private enum RequestIdentifiers {
    static let counter = Atomic<UInt64>(0)
    static let prefix = UInt64.random(in: .min ... .max)
    /// Keeps the top two bits clear so the variant bits never fold two sequence numbers together.
    static let mask = UInt64.random(in: .min ... .max) & 0x3FFF_FFFF_FFFF_FFFF
}
