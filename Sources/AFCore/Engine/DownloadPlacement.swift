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
            self = Self.range(contentRange, continuesFrom: resumeOffset) ? .file(keeping: resumeOffset) : .rangeRejected
        case 416:
            self = .rangeRejected
        case 200..<300:
            // The validator no longer matched (or Range is not supported): a whole new body.
            self = .file(keeping: 0)
        default:
            self = .memory
        }
    }

    /// Whether `bytes first-last/length` (RFC 9110 §14.4) starts at `offset` and runs to the end
    /// of the file (when its length is known): a range that stops short would leave a hole.
    static func range(_ contentRange: String?, continuesFrom offset: Int64) -> Bool {
        guard let contentRange else { return false }
        let parts = contentRange.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bytes",
              let dash = parts[1].firstIndex(of: "-"), let slash = parts[1].firstIndex(of: "/"), dash < slash,
              let first = Int64(parts[1][..<dash].trimmingCharacters(in: .whitespaces)),
              let last = Int64(parts[1][parts[1].index(after: dash)..<slash].trimmingCharacters(in: .whitespaces)),
              first == offset, last >= first else { return false }
        let length = parts[1][parts[1].index(after: slash)...].trimmingCharacters(in: .whitespaces)
        return length == "*" || Int64(length).map { $0 > 0 && last == $0 - 1 } == true
    }
}
