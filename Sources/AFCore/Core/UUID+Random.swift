import Foundation

extension UUID {
    /// A random (version 4) UUID from the system generator; Foundation's `UUID()` on Linux
    /// opens and reads a device file each time, which shows on the request hot path.
    static func fastRandom() -> UUID {
        var generator = SystemRandomNumberGenerator()
        var words = (generator.next() as UInt64, generator.next() as UInt64)
        return withUnsafeMutableBytes(of: &words) { raw in
            raw[6] = (raw[6] & 0x0F) | 0x40  // version 4
            raw[8] = (raw[8] & 0x3F) | 0x80  // RFC 4122 variant
            return UUID(uuid: raw.load(as: uuid_t.self))
        }
    }
}
