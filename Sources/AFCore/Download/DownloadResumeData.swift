import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a download stopped and how to continue it: AF's counterpart of URLSession's resume
/// data, carried as JSON in `DownloadRequest.resumeData`.
///
/// It holds the request without its credentials (Authorization, Cookie and Proxy-Authorization
/// are dropped: interceptors and the cookie store add them again), the name of the partial
/// file in the temporary directory, how many bytes it holds, and the validator the server gave
/// (a strong ETag, else Last-Modified) for `If-Range`.
package struct DownloadResumeData: Codable, Equatable, Sendable {
    static let currentVersion = 1

    var version = Self.currentVersion
    /// The URL the download was made for.
    package var url: URL
    var headers: [String: String]
    /// The partial file's name, always inside the temporary directory.
    var partialFileName: String
    package var offset: Int64
    var validator: String

    /// Headers never stored: credentials, and the ones AF sets to resume.
    private static let droppedHeaders: Set<String> = ["authorization", "cookie", "proxy-authorization",
                                                      "range", "if-range", "accept-encoding"]

    /// The partial file.
    package var partialFile: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent(partialFileName)
    }

    /// Decodes resume data; nil when it is not AF's, of another version, or names any file but
    /// one of AF's own partial downloads (`AF-download-<UUID>.tmp` in the temporary directory):
    /// resume data must not be able to make AF continue into, or move, another file.
    package init?(_ data: Data) {
        guard let decoded = try? JSONDecoder().decode(Self.self, from: data),
              decoded.version == Self.currentVersion, decoded.offset >= 0,
              Self.isPartialFileName(decoded.partialFileName) else { return nil }
        self = decoded
    }

    /// Whether `name` is one `DownloadRequest` gives its partial files.
    static func isPartialFileName(_ name: String) -> Bool {
        let prefix = "AF-download-", suffix = ".tmp"
        guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return false }
        return UUID(uuidString: String(name.dropFirst(prefix.count).dropLast(suffix.count))) != nil
    }

    /// The resume point after an attempt that wrote to `file`: nil when the download cannot be
    /// continued (not a GET, no usable validator, ranges refused, a content-coded body, the
    /// caller's own Range, nothing written). `previous` is the point the attempt continued.
    init?(after request: URLRequest, response: ReceivedResponse?, bodyIsInFile: Bool, file: URL,
          previous: DownloadResumeData?) {
        guard (request.httpMethod ?? "GET") == "GET", let url = request.url else { return nil }
        guard let response, bodyIsInFile else {
            // No answer, or an error answer to a resumed download: the partial file was not touched.
            guard let previous else { return nil }
            self = previous
            return
        }
        if previous == nil, request.value(forHTTPHeaderField: "Range") != nil { return nil }
        guard response.statusCode == 200 || (response.statusCode == 206 && previous != nil) else { return nil }
        if response.value(for: "Accept-Ranges")?.lowercased() == "none" { return nil }
        if let coding = response.value(for: "Content-Encoding"), coding.lowercased() != "identity" {
            return nil
        }
        let validator = Self.validator(of: response) ?? (response.statusCode == 206 ? previous?.validator : nil)
        guard let validator, let size = Self.size(of: file), size > 0 else { return nil }
        var headers: [String: String] = [:]
        for (name, value) in request.allHTTPHeaderFields ?? [:] where !Self.droppedHeaders.contains(name.lowercased()) {
            headers[name] = value
        }
        self.url = url
        self.headers = headers
        partialFileName = file.lastPathComponent
        offset = size
        self.validator = validator
    }

    /// The data to hand to `download(resumingWith:)`.
    /// The resume data's bytes; the same point always gives the same bytes (keys sorted).
    var encoded: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(self)) ?? Data()
    }

    /// The request as it was first made, without the resume headers.
    var plainRequest: URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    /// Adds the headers that continue the download at `offset` when the validator still
    /// matches (else the server sends the whole body), uncompressed so offsets stay true.
    func continuing(_ request: URLRequest) -> URLRequest {
        var request = request
        request.setValue("bytes=\(offset)-", forHTTPHeaderField: "Range")
        request.setValue(validator, forHTTPHeaderField: "If-Range")
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        return request
    }

    /// Whether the partial file is still there, a regular file of this user's (not a symbolic
    /// link, never followed) with one name only (a hard link to another file would make the
    /// download write into that file) and at least `offset` bytes. When not, the download
    /// starts over.
    var partialFileIsUsable: Bool {
        let descriptor = open(partialFile.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var info = stat()
        return fstat(descriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_uid == geteuid()
            && info.st_nlink == 1 && Int64(info.st_size) >= offset
    }

    /// A strong ETag, else Last-Modified: what `If-Range` accepts (RFC 9110 §13.1.5).
    private static func validator(of response: ReceivedResponse) -> String? {
        if let etag = response.value(for: "ETag"), !etag.hasPrefix("W/"), !etag.isEmpty { return etag }
        return response.value(for: "Last-Modified")
    }

    static func size(of file: URL) -> Int64? {
        var status = stat()
        guard stat(file.path, &status) == 0 else { return nil }
        return Int64(status.st_size)
    }
}
