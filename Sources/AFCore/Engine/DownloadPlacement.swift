/// Where a response body goes when the exchange downloads to a file, decided from its head.
enum DownloadPlacement: Equatable {
    /// Into the file, after its first `keeping` bytes.
    case file(keeping: Int64)
    /// Into memory, leaving the file as it is: the error answer to a resumed download, which
    /// must not destroy the partial file.
    case memory
    /// The server answered a resumed download with another range than asked (or none it can
    /// serve): the exchange stops and the download starts again from zero.
    case rangeRejected

    init(statusCode: Int, contentRange: String?, resumeOffset: Int64) {
        guard resumeOffset > 0 else {
            self = .file(keeping: 0)
            return
        }
        switch statusCode {
        case 206:
            self = Self.rangeStart(of: contentRange) == resumeOffset ? .file(keeping: resumeOffset) : .rangeRejected
        case 416:
            self = .rangeRejected
        case 200..<300:
            // The validator no longer matched (or Range is not supported): a whole new body.
            self = .file(keeping: 0)
        default:
            self = .memory
        }
    }

    /// The first byte position of `bytes first-last/length` (RFC 9110 §14.4).
    static func rangeStart(of contentRange: String?) -> Int64? {
        guard let contentRange else { return nil }
        let parts = contentRange.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bytes",
              let dash = parts[1].firstIndex(of: "-") else { return nil }
        return Int64(parts[1][..<dash].trimmingCharacters(in: .whitespaces))
    }
}
