import AFTrust
import Foundation

/// The input as a public-key pin. Checks: an accepted pin holds a 32-byte digest and writes
/// back as a pin that reads as the same key.
enum PinFuzz {
    static func run(_ input: Data) -> [String] {
        guard let key = PublicKey(pin: String(decoding: input, as: UTF8.self)) else { return [] }
        var problems: [String] = []
        if key.sha256.count != 32 { problems.append("digest of \(key.sha256.count) bytes") }
        if PublicKey(pin: key.pin) != key { problems.append("\(key.pin) does not read back") }
        return problems
    }
}
