import AFCore
import Foundation

/// A form too big for memory as upload segments, so nothing already on disk is copied: boundaries
/// and part headers in memory; file parts read from their own files as they are sent; `Data`
/// parts in memory while they sum below the threshold. What cannot be read twice (stream
/// parts), and `Data` parts at or above the threshold, go to a `SpilledForm` and are read from it.
struct FormSegments {
    let segments: UploadSegments
    /// The file holding spilled parts, if any: it is closed when the request ends.
    let spill: SpilledForm?

    init(parts: [BodyPart], boundary: String, threshold: UInt64) throws {
        let encoder = MultipartEncoder(boundary: boundary)
        let dataInMemory = parts.reduce(UInt64(0)) { total, part in
            if case .data = part.source { total + part.length } else { total }
        }
        let spills: (BodyPart) -> Bool = { part in
            switch part.source {
            case .file: false
            case .data: dataInMemory >= threshold
            case .stream: true
            }
        }
        let spilledParts = parts.filter(spills)
        let spill = spilledParts.isEmpty ? nil : try SpilledForm { output in
            for part in spilledParts { try encoder.copyBody(of: part, to: output.write) }
        }
        var segments: [UploadSegments.Segment] = []
        var spillOffset: UInt64 = 0
        for (index, part) in parts.enumerated() {
            segments.append(.bytes(Data(encoder.head(of: part, at: index).utf8)))
            switch part.source {
            case let .file(url):
                segments.append(.file(url, offset: 0, length: part.length, fileSize: part.length))
            case let .data(data) where !spills(part):
                segments.append(.bytes(data))
            case .data, .stream:
                guard let spill else { continue }
                segments.append(.file(spill.url, offset: spillOffset, length: part.length, fileSize: spill.size))
                spillOffset += part.length
            }
        }
        if !parts.isEmpty { segments.append(.bytes(Data(encoder.closing.utf8))) }
        self.segments = UploadSegments(segments)
        self.spill = spill
    }
}
