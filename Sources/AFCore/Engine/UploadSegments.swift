import Foundation

/// A body sent as a run of pieces read in order as curl asks for them: bytes in memory and
/// ranges of files, read from the files themselves (nothing is copied beforehand). AFMultipart
/// sends large forms this way. Its length is exact, so the request has a `Content-Length`.
package struct UploadSegments: Sendable {
    package enum Segment: Sendable {
        /// Bytes held in memory.
        case bytes(Data)
        /// `length` bytes of the file at `url` from `offset`; the file must still be
        /// `fileSize` bytes long when it is sent.
        case file(URL, offset: UInt64, length: UInt64, fileSize: UInt64)

        var length: UInt64 {
            switch self {
            case let .bytes(data): UInt64(data.count)
            case let .file(_, _, length, _): length
            }
        }
    }

    package let segments: [Segment]
    /// The body's length in bytes.
    package let length: UInt64

    package init(_ segments: [Segment]) {
        self.segments = segments
        length = segments.reduce(0) { $0 + $1.length }
    }
}

/// An upload body that can be sent as segments: the engine reads those, not the object itself.
package protocol UploadSegmentsProviding: AnyObject {
    var uploadSegments: UploadSegments { get }
}
