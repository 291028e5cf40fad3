import CCurlShim
import Foundation

/// OpenSSL's chain verification run again outside the handshake, against given anchors.
enum ChainVerifier {
    /// Whether `chain` (DER, leaf first) leads to one of `anchors` (and only those). Each anchor
    /// is trusted as such even when it is not self-signed: a pinned leaf or intermediate, as on
    /// Apple platforms, where pinned certificates become the trust anchors.
    static func verify(_ chain: [Data], anchors: [Data]) -> (verified: Bool, error: String) {
        withPointers(chain) { chainPointers, chainLengths in
            withPointers(anchors) { anchorPointers, anchorLengths in
                var error = [CChar](repeating: 0, count: 256)
                let verified = afc_verify_chain(chainPointers, chainLengths, chain.count, anchorPointers, anchorLengths,
                                                anchors.count, 0, 1, nil, nil, &error, error.count) == 1
                let text = error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
                return (verified, String(decoding: text, as: UTF8.self))
            }
        }
    }

    /// Calls `body` with C arrays of pointers to, and lengths of, `blobs`.
    private static func withPointers<Result>(_ blobs: [Data],
                                             _ body: ([UnsafePointer<UInt8>], [Int]) -> Result) -> Result {
        let copies = blobs.map { blob -> UnsafeMutablePointer<UInt8> in
            let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(blob.count, 1))
            blob.copyBytes(to: pointer, count: blob.count)
            return pointer
        }
        defer { copies.forEach { $0.deallocate() } }
        return body(copies.map { UnsafePointer($0) }, blobs.map(\.count))
    }
}
