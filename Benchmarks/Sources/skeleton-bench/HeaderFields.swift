import SkeletonShim

/// The response's header lines as a dictionary, read byte by byte.
@Sendable func headerFields(_ slot: Slot) -> [String: String] {
    let transfer = slot.transfer
    return withUnsafeBytes(of: &transfer.pointee.headers) { raw in
        let bytes = raw.prefix(transfer.pointee.headersLength)
        var fields: [String: String] = [:]
        var lineStart = bytes.startIndex
        var isStatusLine = true
        while let newline = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
            var lineEnd = newline
            if lineEnd > lineStart, bytes[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
            defer { lineStart = newline + 1 }
            if isStatusLine { isStatusLine = false; continue }
            guard let colon = bytes[lineStart..<lineEnd].firstIndex(of: UInt8(ascii: ":")) else { continue }
            var valueStart = colon + 1
            while valueStart < lineEnd, bytes[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
            fields[String(decoding: bytes[lineStart..<colon], as: UTF8.self)] =
                String(decoding: bytes[valueStart..<lineEnd], as: UTF8.self)
        }
        return fields
    }
}
