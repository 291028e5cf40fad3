/// How far a content-coded response (gzip, br, deflate, zstd) may expand as it is decoded: the
/// first `allowance` decoded bytes always pass; past them, the decoded bytes may be at most
/// `maximumRatio` times the bytes received. A response that expands further fails with
/// `URLError(.dataLengthExceedsMaximum)` (wrapped in `AFError.sessionTaskFailed`) as soon as it
/// does, so a decompression bomb costs neither the memory nor the disk it would fill. Applies to
/// bodies in memory, downloads to file and streams; responses without a content coding are not
/// limited. A `Session`'s `decompressionLimit`; nil turns the check off.
public struct DecompressionLimit: Sendable, Hashable {
    /// Decoded bytes always accepted, whatever the ratio.
    public var allowance: Int
    /// Decoded bytes accepted per byte received, past the allowance.
    public var maximumRatio: Int

    /// A limit of `maximumRatio` decoded bytes per byte received, past the first `allowance` bytes.
    public init(maximumRatio: Int, allowance: Int = 1 << 20) {
        self.maximumRatio = maximumRatio
        self.allowance = allowance
    }

    /// 200 decoded bytes per byte received past the first MiB: far above what real JSON, HTML or
    /// logs reach with gzip or brotli (2–50×, 100× for very repetitive data), far below a bomb's
    /// (a gzip stream of zeros is 1,000×).
    public static let `default` = DecompressionLimit(maximumRatio: 200)

    /// Whether `decoded` bytes are acceptable after `received` bytes arrived.
    func accepts(decoded: Int64, received: Int64) -> Bool {
        let (allowed, overflow) = received.multipliedReportingOverflow(by: Int64(maximumRatio))
        return decoded <= Int64(allowance) || overflow || decoded <= allowed
    }
}
