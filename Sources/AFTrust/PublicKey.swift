import CCurlShim
import Foundation

/// A public key, compared by the SHA-256 of its DER SubjectPublicKeyInfo: AF's counterpart of
/// `SecKey` for pinning. Made from a certificate, from SPKI bytes, or from an OkHttp/curl pin
/// `sha256/<base64>`.
public struct PublicKey: Hashable, Sendable {
    /// SHA-256 of the DER SubjectPublicKeyInfo.
    public let sha256: Data

    /// A key from its DER SubjectPublicKeyInfo.
    public init(spkiDERData: Data) {
        sha256 = SHA256Digest.of(spkiDERData)
    }

    /// A key from a pin `sha256/<base64 of the SPKI's SHA-256>`; nil when it is not one.
    public init?(pin: String) {
        guard pin.hasPrefix("sha256/"), let digest = Data(base64Encoded: String(pin.dropFirst("sha256/".count))),
              digest.count == 32 else { return nil }
        sha256 = digest
    }

    /// The key as a pin: `sha256/<base64>`.
    public var pin: String { "sha256/" + sha256.base64EncodedString() }
}

/// SHA-256 through OpenSSL.
enum SHA256Digest {
    static func of(_ data: Data) -> Data {
        var digest = [UInt8](repeating: 0, count: 32)
        data.withUnsafeBytes { bytes in
            _ = afc_sha256(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, &digest)
        }
        return Data(digest)
    }
}
