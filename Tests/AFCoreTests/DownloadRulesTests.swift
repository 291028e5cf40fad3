@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The pure rules of downloads: where a body goes, resume points, suggested file names.
struct DownloadRulesTests {
    @Test func aNewDownloadWritesEveryBodyFromZero() {
        for status in [200, 206, 301, 404, 416, 503] {
            #expect(DownloadPlacement(statusCode: status, contentRange: nil, resumeOffset: 0) == .file(keeping: 0))
        }
    }

    @Test func aResumedDownloadContinuesOnlyTheRangeItAskedFor() {
        #expect(DownloadPlacement(statusCode: 206, contentRange: "bytes 500-999/1000", resumeOffset: 500) == .file(keeping: 500))
        #expect(DownloadPlacement(statusCode: 206, contentRange: "bytes 0-999/1000", resumeOffset: 500) == .rangeRejected)
        #expect(DownloadPlacement(statusCode: 206, contentRange: nil, resumeOffset: 500) == .rangeRejected)
        #expect(DownloadPlacement(statusCode: 206, contentRange: "items 500-999/1000", resumeOffset: 500) == .rangeRejected)
        #expect(DownloadPlacement(statusCode: 416, contentRange: "bytes */1000", resumeOffset: 500) == .rangeRejected)
        #expect(DownloadPlacement(statusCode: 200, contentRange: nil, resumeOffset: 500) == .file(keeping: 0))
        #expect(DownloadPlacement(statusCode: 302, contentRange: nil, resumeOffset: 500) == .memory)
        #expect(DownloadPlacement(statusCode: 503, contentRange: nil, resumeOffset: 500) == .memory)
    }

    /// A 206 continues the file only when it runs to its end (or the length is unknown).
    @Test func aRangeThatStopsShortOfTheEndIsRejected() {
        let continues = { (range: String) in
            DownloadPlacement(statusCode: 206, contentRange: range, resumeOffset: 500) == .file(keeping: 500)
        }
        #expect(continues("bytes 500-999/*"))
        #expect(continues("BYTES 500 - 999 / 1000"))
        for range in ["bytes 500-599/1000", "bytes 500-1000/1000", "bytes 500-999/0", "bytes 500-999/-9223372036854775808",
                      "bytes 500-400/1000", "bytes 500-/1000", "bytes 500-999", "bytes 500/1000-999", "bytes 500-999/x"] {
            #expect(!continues(range), "\(range)")
        }
    }

    private func response(_ status: Int, _ headers: [String: String]) -> ReceivedResponse {
        ReceivedResponse(head: ResponseHead(statusCode: status, httpVersion: "HTTP/1.1", headers: headers.map { ($0.key, $0.value) }),
                         url: URL(string: "http://example.com/file")!)
    }

    private func partialFile(bytes: Int) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("AF-download-\(UUID().uuidString).tmp")
        try Data(count: bytes).write(to: url)
        return url
    }

    @Test func aResumePointNeedsAGETAStrongValidatorAndIdentityBytes() throws {
        let file = try partialFile(bytes: 10)
        defer { try? FileManager.default.removeItem(at: file) }
        let get = URLRequest(url: URL(string: "http://example.com/file")!)
        func point(_ request: URLRequest, _ status: Int, _ headers: [String: String]) -> DownloadResumeData? {
            DownloadResumeData(after: request, response: response(status, headers), bodyIsInFile: true, file: file, previous: nil)
        }
        func point(_ headers: [String: String]) -> DownloadResumeData? { point(get, 200, headers) }
        #expect(point(["ETag": "\"a\""])?.validator == "\"a\"")
        #expect(point(["ETag": "W/\"a\"", "Last-Modified": "Tue, 01 Sep 2026 00:00:00 GMT"])?.validator
                    == "Tue, 01 Sep 2026 00:00:00 GMT")
        #expect(point(["ETag": "W/\"a\""]) == nil)
        #expect(point([:]) == nil)
        #expect(point(["ETag": "\"a\"", "Accept-Ranges": "none"]) == nil)
        #expect(point(["ETag": "\"a\"", "Content-Encoding": "gzip"]) == nil)
        #expect(point(get, 206, ["ETag": "\"a\""]) == nil)  // a 206 only continues a resume point
        var post = get
        post.httpMethod = "POST"
        #expect(point(post, 200, ["ETag": "\"a\""]) == nil)
        var ranged = get
        ranged.setValue("bytes=0-99", forHTTPHeaderField: "Range")
        #expect(point(ranged, 200, ["ETag": "\"a\""]) == nil)
        #expect(point(["ETag": "\"a\""])?.offset == 10)
    }

    @Test func resumeDataRoundTripsAndContinuesWithRangeAndIfRange() throws {
        let file = try partialFile(bytes: 42)
        defer { try? FileManager.default.removeItem(at: file) }
        var request = URLRequest(url: URL(string: "http://example.com/file?x=1")!)
        request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        request.setValue("yes", forHTTPHeaderField: "X-Kept")
        let point = try #require(DownloadResumeData(after: request, response: response(200, ["ETag": "\"e\""]),
                                                    bodyIsInFile: true, file: file, previous: nil))
        #expect(DownloadResumeData(point.encoded) == point)
        #expect(point.partialFile.standardizedFileURL.path == file.standardizedFileURL.path)
        let continued = point.continuing(point.plainRequest)
        #expect(continued.url == request.url)
        #expect(continued.value(forHTTPHeaderField: "Range") == "bytes=42-")
        #expect(continued.value(forHTTPHeaderField: "If-Range") == "\"e\"")
        #expect(continued.value(forHTTPHeaderField: "Accept-Encoding") == "identity")
        #expect(continued.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(continued.value(forHTTPHeaderField: "X-Kept") == "yes")
    }

    @Test func suggestedFilenames() {
        #expect(SuggestedFilename.fromContentDisposition(#"attachment; filename="report.pdf""#) == "report.pdf")
        #expect(SuggestedFilename.fromContentDisposition("attachment; filename=plain.txt") == "plain.txt")
        #expect(SuggestedFilename.fromContentDisposition(#"attachment; filename="a.txt"; filename*=UTF-8''%C3%A9t%C3%A9.txt"#) == "été.txt")
        #expect(SuggestedFilename.fromContentDisposition(#"attachment; filename="say \"hi\".txt""#) == #"say "hi".txt"#)
        #expect(SuggestedFilename.fromContentDisposition("inline") == nil)
        #expect(SuggestedFilename.sanitized("../../etc/passwd") == "passwd")
        #expect(SuggestedFilename.sanitized(#"C:\evil\boot.ini"#) == "boot.ini")
        #expect(SuggestedFilename.sanitized("..") == "Unknown")
        #expect(SuggestedFilename.sanitized("") == "Unknown")
        #expect(SuggestedFilename.sanitized("a\u{0}b\nc.txt") == "abc.txt")
        let fromURL = HTTPURLResponse(url: URL(string: "http://example.com/files/data.csv?x=1")!, statusCode: 200,
                                      httpVersion: nil, headerFields: [:])!
        #expect(SuggestedFilename.for(fromURL) == "data.csv")
    }
}
