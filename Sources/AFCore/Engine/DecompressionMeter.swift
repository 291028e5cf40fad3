import Foundation

/// Counts a content-coded body's decoded bytes against its `DecompressionLimit` as curl decodes
/// it; the bytes received come from curl, which counts them before decoding. Engine thread.
struct DecompressionMeter {
    let limit: DecompressionLimit
    private(set) var decoded: Int64 = 0
    private(set) var received: Int64 = 0

    /// A meter for a response with `head`, when it is content-coded and a limit applies.
    init?(limit: DecompressionLimit?, head: ResponseHead) {
        guard let limit, let coding = head.value(for: "Content-Encoding").map({ Substring($0).trimmingASCIISpaces() }),
              !coding.isEmpty, !String(coding).equalsIgnoringASCIICase("identity") else { return nil }
        self.limit = limit
    }

    /// Adds `count` decoded bytes; false once the body expanded past the limit. `received` is
    /// asked only past the allowance.
    mutating func admit(_ count: Int, received: () -> Int64) -> Bool {
        decoded += Int64(count)
        guard decoded > Int64(limit.allowance) else { return true }
        self.received = received()
        return limit.accepts(decoded: decoded, received: self.received)
    }

    /// What the request fails with once `admit` said no.
    func failure(url: URL?) -> URLError {
        let reason = "The response expanded to more than \(limit.maximumRatio) times the \(received) bytes received while "
            + "being decoded (\(decoded) bytes): refused as a possible decompression bomb (Session.decompressionLimit)"
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: reason, "AFDecodedBytes": decoded, "AFReceivedBytes": received]
        if let url { userInfo[NSURLErrorFailingURLErrorKey] = url }
        return URLError(.dataLengthExceedsMaximum, userInfo: userInfo)
    }
}
