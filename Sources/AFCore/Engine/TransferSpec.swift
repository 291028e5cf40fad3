import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Everything the engine needs to run one HTTP exchange (one hop of a task).
struct TransferSpec: @unchecked Sendable {
    /// The URL curl is given. Changing it drops `parsedURL`, which would override it.
    var url: String { didSet { parsedURL = nil } }
    /// `url` parsed, as the request had it; responses are reported for it.
    var requestURL: URL?
    var method: String
    /// Header lines in curl's form: `Name: value`, or `Name;` for an empty value.
    var headerLines: [String]
    var body: Data?
    /// A body read from a file as it is sent (instead of `body`).
    var uploadFile: URL?
    /// A body read from a stream as it is sent (instead of `body`); it cannot be sent twice.
    var uploadStream: InputStream?
    /// A body read from memory and files, segment by segment, as it is sent (instead of `body`).
    var uploadSegments: UploadSegments?
    /// Where the response body is written as it arrives, instead of memory.
    var download: DownloadTarget?
    /// When set, the final response's body is handed over chunk by chunk as it arrives (never
    /// gathered), under this flow control.
    var bodyStream: StreamFlowControl?
    /// For a streamed body the cache may store: also keep the body, while it stays within this
    /// many bytes (beyond, the copy is dropped and the response is not stored).
    var streamCopyLimit: Int?
    /// Idle timeout: how long to wait for a connection or for more data.
    var idleTimeout: TimeInterval
    /// How far a content-coded body may expand as curl decodes it; nil: no limit.
    var decompressionLimit: DecompressionLimit?
    /// The options a pooled handle may keep between transfers (protocol, timeouts, proxy, CA
    /// files, Unix domain socket), shared with the session's other hops that ask for the same.
    var standing: StandingOptions
    /// Answers Basic and Digest challenges of this hop's server.
    var credential: HTTPCredential?
    /// How the server's certificate chain is judged; nil: by OpenSSL alone.
    var trust: TrustRequirement?
    /// Why the exchange must not be sent (a header, method or URL that would change what goes on
    /// the wire); it then fails before connecting.
    var unsafe: UnsafeRequestError?
    /// When set, the final response's body waits behind it until it opens.
    var responseGate: ResponseGate?
    /// What the URL leads to (an http+unix URL goes to an HTTP server).
    var target: URLTarget = .http
    /// `url` parsed by curl, when the session has it (see `KnownURL`); else curl parses the string.
    var parsedURL: ParsedURL?
}

/// A hop's trust decision, settled before the transfer starts.
enum TrustRequirement: @unchecked Sendable {
    /// The evaluator judges every handshake (host validation included).
    case evaluate(any ServerTrustEvaluating, host: String)
    /// The hop must not even connect.
    case refuse(AFError)
}

/// A user name and password for HTTP authentication.
struct HTTPCredential: Sendable, Hashable {
    var user: String
    var password: String
}

/// The status line and headers of a response, as received. The fields are kept as their bytes,
/// in one buffer: the engine thread gathers them as curl hands over each line, and Strings are
/// made only for the fields someone reads.
package struct ResponseHead: Sendable {
    package var statusCode: Int
    package var httpVersion: String
    /// Each field as one record: the name's length and the value's (an `Int` each), then the
    /// name's bytes and the value's. One allocation for the whole head, walked field by field.
    private var records: [UInt8] = []
    private var fieldCount = 0

    /// Where one field's name and value lie in `records`.
    private struct FieldBounds {
        var name: Range<Int>
        var value: Range<Int>
    }

    private static let lengthSize = MemoryLayout<Int>.size

    init(statusCode: Int, httpVersion: String, headers: [(name: String, value: String)]) {
        self.statusCode = statusCode
        self.httpVersion = httpVersion
        for (name, value) in headers { append(name: name, value: value) }
    }

    /// Makes room for fields of `bytes` name and value bytes in all, `count` of them (in place
    /// of the room a first field reserves for a head received).
    mutating func reserveCapacity(fields count: Int, bytes: Int) {
        records.reserveCapacity(records.count + count * 2 * Self.lengthSize + bytes)
    }

    /// Bytes the fields take in memory (without what the allocator rounds up, which varies from
    /// one allocation to the next).
    var storageSize: Int { records.count }

    /// Adds a field given as strings.
    mutating func append(name: String, value: String) {
        name.withUTF8Bytes { name in value.withUTF8Bytes { append(name: name, value: $0) } }
    }

    /// Adds a field (bytes as received, without surrounding whitespace).
    mutating func append(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        if records.capacity == 0 { records.reserveCapacity(768) }
        // The record is laid out in a temporary buffer (on the stack when small) and appended whole:
        // each append checks the array's uniqueness and room, which costs more than one more copy.
        let nameStart = 2 * Self.lengthSize
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: nameStart + name.count + value.count) { record in
            let bytes = UnsafeMutableRawBufferPointer(record)
            bytes.storeBytes(of: name.count, as: Int.self)
            bytes.storeBytes(of: value.count, toByteOffset: Self.lengthSize, as: Int.self)
            UnsafeMutableRawBufferPointer(rebasing: bytes[nameStart...]).copyMemory(from: UnsafeRawBufferPointer(name))
            UnsafeMutableRawBufferPointer(rebasing: bytes[(nameStart + name.count)...]).copyMemory(from: UnsafeRawBufferPointer(value))
            records.append(contentsOf: record)
        }
        fieldCount += 1
    }

    /// Calls `body` with each field's bounds, in the order received, until it returns false.
    private static func forEachField(in records: UnsafeBufferPointer<UInt8>, _ body: (FieldBounds) -> Bool) {
        let raw = UnsafeRawBufferPointer(records)
        var offset = 0
        while offset < raw.count {
            let nameLength = raw.loadUnaligned(fromByteOffset: offset, as: Int.self)
            let valueLength = raw.loadUnaligned(fromByteOffset: offset + lengthSize, as: Int.self)
            let nameStart = offset + 2 * lengthSize
            let valueStart = nameStart + nameLength
            offset = valueStart + valueLength
            guard body(FieldBounds(name: nameStart..<valueStart, value: valueStart..<offset)) else { return }
        }
    }

    /// The fields in the order received, names as spelled.
    package var headers: [(name: String, value: String)] {
        records.withUnsafeBufferPointer { records in
            var headers: [(name: String, value: String)] = []
            headers.reserveCapacity(fieldCount)
            Self.forEachField(in: records) { field in
                headers.append((String(decoding: UnsafeBufferPointer(rebasing: records[field.name]), as: UTF8.self),
                                String(decoding: UnsafeBufferPointer(rebasing: records[field.value]), as: UTF8.self)))
                return true
            }
            return headers
        }
    }

    /// Header fields with repeated names joined by `, `, as URLSession presents them.
    package var headerFields: [String: String] {
        let headers = self.headers
        var fields: [String: String] = [:]
        fields.reserveCapacity(headers.count)
        // Few headers: find the first spelling by scanning; many: by a lowercased index.
        var firstSpelling: [String: String]? = headers.count > 32 ? [:] : nil
        for (index, (name, value)) in headers.enumerated() {
            let existing: String?
            if firstSpelling != nil {
                let key = name.lowercased()
                existing = firstSpelling?[key]
                if existing == nil { firstSpelling?[key] = name }
            } else {
                existing = headers[..<index].first { $0.name.equalsIgnoringASCIICase(name) }?.name
            }
            if let existing {
                fields[existing] = fields[existing].map { "\($0), \(value)" } ?? value
            } else {
                fields[name] = value
            }
        }
        return fields
    }

    /// The first value of the header `name` (ASCII case-insensitive), compared over the bytes.
    package func value(for name: String) -> String? {
        withValue(for: name) { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether the head has a field `name` (ASCII case-insensitive); no String is made.
    func contains(_ name: String) -> Bool {
        valueRange(for: name) != nil
    }

    /// `body` called with the bytes of the first value of `name` (ASCII case-insensitive); nil
    /// when there is no such field.
    func withValue<Result>(for name: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        guard let range = valueRange(for: name) else { return nil }
        return records.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// The first value of `name` when it is a decimal number without sign (as `Content-Length`
    /// is); nil when there is no such field, or it is anything else or too large.
    func decimal(for name: String) -> Int? {
        withValue(for: name) { digits -> Int? in
            guard !digits.isEmpty else { return nil }
            var number = 0
            for digit in digits {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
                let (times10, overflow) = number.multipliedReportingOverflow(by: 10)
                let (sum, overflowAdding) = times10.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
                guard !overflow, !overflowAdding else { return nil }
                number = sum
            }
            return number
        } ?? nil
    }

    /// Where the first value of `name` lies in `records`.
    private func valueRange(for name: String) -> Range<Int>? {
        var name = name
        return name.withUTF8 { wanted -> Range<Int>? in
            records.withUnsafeBufferPointer { records -> Range<Int>? in
                var found: Range<Int>?
                Self.forEachField(in: records) { field in
                    guard field.name.count == wanted.count else { return true }
                    var index = 0
                    let start = field.name.lowerBound
                    while index < wanted.count, records[start + index].equalsIgnoringASCIICase(wanted[index]) { index += 1 }
                    guard index == wanted.count else { return true }
                    found = field.value
                    return false
                }
                return found
            }
        }
    }

    /// The `HTTPURLResponse` a URLSession user would get for this head.
    package func httpResponse(for url: URL) -> HTTPURLResponse? {
        HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: httpVersion, headerFields: headerFields)
    }
}

/// Parses header lines as curl's header callback hands them over, one line a call.
package struct ResponseHeadParser {
    private var current: ResponseHead?
    package private(set) var completed: ResponseHead?

    package init() {}

    /// Feeds one raw line (with its CRLF). Returns true when a final (non-1xx) head just completed.
    package mutating func consume(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let end = line.trimmedEnd(from: 0, to: line.count)
        if end == 0 {
            guard let head = current else { return false }
            current = nil
            if (100..<200).contains(head.statusCode) { return false }
            completed = head
            return true
        }
        if end >= 5, line[0] == UInt8(ascii: "H"), line[1] == UInt8(ascii: "T"), line[2] == UInt8(ascii: "T"),
           line[3] == UInt8(ascii: "P"), line[4] == UInt8(ascii: "/") {
            current = Self.statusLine(UnsafeBufferPointer(rebasing: line[0..<end]))
        } else if current != nil, let start = line.baseAddress, let found = memchr(start, Int32(UInt8(ascii: ":")), end) {
            let colon = UnsafeRawPointer(start).distance(to: found)
            let valueStart = line.trimmedStart(from: colon + 1, to: end)
            current?.append(name: UnsafeBufferPointer(rebasing: line[0..<colon]),
                            value: UnsafeBufferPointer(rebasing: line[valueStart..<end]))
        }
        return false
    }

    /// `HTTP/1.1 200 OK`: the version, then the code, separated by spaces; read over the bytes
    /// (a String split costs more than the rest of the head's parsing). nil when the code is not three
    /// digits (RFC 9112 §4; curl 7.88 passes on longer codes after `HTTP/2`).
    private static func statusLine(_ line: UnsafeBufferPointer<UInt8>) -> ResponseHead? {
        let space = UInt8(ascii: " ")
        guard let versionEnd = line.firstIndex(of: space) else { return nil }
        var index = versionEnd
        while index < line.count, line[index] == space { index += 1 }
        var code = 0
        let codeStart = index
        while index < line.count, index - codeStart < 4, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(line[index]) {
            code = code * 10 + Int(line[index] - UInt8(ascii: "0"))
            index += 1
        }
        guard index - codeStart == 3, index == line.count || line[index] == space else { return nil }
        let version = String(decoding: UnsafeBufferPointer(rebasing: line[..<versionEnd]), as: UTF8.self)
        return ResponseHead(statusCode: code, httpVersion: version, headers: [])
    }
}

/// An upload's body as a task hands it to each exchange.
enum TransferUpload: @unchecked Sendable {
    case data(Data)
    case file(URL)
    case stream(InputStream)
    case segments(UploadSegments)

    var data: Data? { if case let .data(data) = self { data } else { nil } }
    var segments: UploadSegments? { if case let .segments(segments) = self { segments } else { nil } }
    var fileURL: URL? { if case let .file(url) = self { url } else { nil } }
    var stream: InputStream? { if case let .stream(stream) = self { stream } else { nil } }
}
