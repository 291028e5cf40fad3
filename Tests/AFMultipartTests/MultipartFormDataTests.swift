@testable import AFMultipart
import AFTestSupport
import Foundation
import Testing

/// Encoding rules, MIME types and errors, without a server.
struct MultipartFormDataTests {
    @Test func encodesPartsWithCRLFBoundariesAndHeaders() throws {
        let form = MultipartFormData(boundary: "B")
        form.append(Data("one".utf8), withName: "a")
        form.append(Data("two".utf8), withName: "b", fileName: "b.txt", mimeType: "text/plain")
        let expected = "--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\none"
            + "\r\n--B\r\nContent-Disposition: form-data; name=\"b\"; filename=\"b.txt\"\r\nContent-Type: text/plain\r\n\r\ntwo"
            + "\r\n--B--\r\n"
        #expect(try form.encode() == Data(expected.utf8))
        #expect(form.contentType == "multipart/form-data; boundary=B")
        #expect(form.contentLength == 6)
    }

    @Test func anEmptyFormEncodesToNothing() throws {
        #expect(try MultipartFormData().encode().isEmpty)
    }

    @Test func boundariesAreRandomAndLong() {
        let first = MultipartFormData().boundary
        let second = MultipartFormData().boundary
        #expect(first != second)
        #expect(first.hasPrefix("alamofire.boundary."))
        #expect(first.count == "alamofire.boundary.".count + 16)
    }

    @Test func quotesAndLineBreaksAreEscaped() {
        #expect(PartHeaders.contentDisposition(name: #"a"b\c"#, fileName: "x\r\ny")
                    == #"form-data; name="a\"b\\c"; filename="x%0D%0Ay""#)
        #expect(PartHeaders.contentDisposition(name: "ünï", fileName: nil) == #"form-data; name="ünï""#)
    }

    @Test func mimeTypesComeFromTheTableThenTheSystemThenOctetStream() {
        #expect(MIMETypes.mimeType(forPathExtension: "JSON") == "application/json")
        #expect(MIMETypes.mimeType(forPathExtension: "png") == "image/png")
        #expect(MIMETypes.mimeType(forPathExtension: "no-such-extension") == "application/octet-stream")
        let parsed = MIMETypes.parse("# comment\ntext/x-demo\tdemo dmo\napplication/x-other other # trailing\nbroken\n")
        #expect(parsed["demo"] == "text/x-demo")
        #expect(parsed["dmo"] == "text/x-demo")
        #expect(parsed["other"] == "application/x-other")
        #expect(parsed["broken"] == nil)
    }

    @Test func fileNameAndTypeComeFromTheFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("af-\(UUID().uuidString).csv")
        try Data("a,b\n".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let form = MultipartFormData(boundary: "B")
        form.append(url, withName: "table")
        let text = String(decoding: try form.encode(), as: UTF8.self)
        #expect(text.contains("filename=\"\(url.lastPathComponent)\"\r\nContent-Type: text/csv\r\n\r\na,b\n"))
    }

    private func encodingError(_ build: (MultipartFormData) -> Void) -> AFError.MultipartEncodingFailureReason? {
        let form = MultipartFormData()
        build(form)
        do {
            _ = try form.encode()
            return nil
        } catch let AFError.multipartEncodingFailed(reason) {
            return reason
        } catch {
            return nil
        }
    }

    @Test func badFilesGiveAlamofiresReasons() throws {
        guard case .bodyPartURLInvalid = encodingError({ $0.append(URL(string: "https://example.com/a.txt")!, withName: "f") }) else {
            Issue.record("expected bodyPartURLInvalid")
            return
        }
        guard case .bodyPartFileNotReachableWithError = encodingError({ $0.append(URL(fileURLWithPath: "/no/such/file.txt"), withName: "f") }) else {
            Issue.record("expected bodyPartFileNotReachableWithError")
            return
        }
        guard case .bodyPartFileIsDirectory = encodingError({ $0.append(FileManager.default.temporaryDirectory, withName: "f") }) else {
            Issue.record("expected bodyPartFileIsDirectory")
            return
        }
        guard case .bodyPartFilenameInvalid = encodingError({ $0.append(URL(fileURLWithPath: "/"), withName: "f") }) else {
            Issue.record("expected bodyPartFilenameInvalid")
            return
        }
    }

    @Test func aStreamShorterThanPromisedFails() {
        let reason = encodingError { form in
            form.append(InputStream(data: Data("short".utf8)), withLength: 10, name: "s", fileName: "s", mimeType: "text/plain")
        }
        guard case let .inputStreamReadFailed(error) = reason, let mismatch = error as? AFError.UnexpectedInputStreamLength else {
            Issue.record("expected UnexpectedInputStreamLength, got \(String(describing: reason))")
            return
        }
        #expect(mismatch.bytesExpected == 10 && mismatch.bytesRead == 5)
    }

    @Test func aStreamLongerThanPromisedIsSentUpToItsLength() throws {
        let form = MultipartFormData(boundary: "b")
        form.append(InputStream(data: Data("much longer than promised".utf8)), withLength: 4, name: "s", fileName: "s", mimeType: "text/plain")
        let body = String(decoding: try form.encode(), as: UTF8.self)
        #expect(body.contains("\r\n\r\nmuch\r\n--b--\r\n"), "\(body)")
    }

    /// Declared lengths past what a UInt64 adds up to: the total reads as the largest, and
    /// encoding a stream that gives less fails as any short stream does (nothing is reserved
    /// for the declared length).
    @Test func lengthsTooLargeToAddUpFailAsShortStreams() {
        let form = MultipartFormData()
        form.append(Data("a".utf8), withName: "a")
        form.append(InputStream(data: Data("short".utf8)), withLength: .max, name: "s", fileName: "s", mimeType: "text/plain")
        #expect(form.contentLength == .max)
        #expect(throws: AFError.self) { try form.encode() }
    }

    /// What `encode()` reserves is the framing plus the bodies: the framing it computes is
    /// exactly what the encoder writes around the bodies, multi-byte names included.
    @Test func framingLengthIsWhatTheEncoderWritesAroundTheBodies() throws {
        let form = MultipartFormData()
        form.append(Data("one".utf8), withName: "a")
        form.append(Data("déjà".utf8), withName: "naïve", fileName: "résumé.txt", mimeType: "text/plain")
        form.append(InputStream(data: Data("streamed".utf8)), withLength: 8, name: "s", fileName: "s", mimeType: "text/plain")
        let encoded = try form.encode()
        let framing = MultipartEncoder(boundary: form.boundary).framingLength(of: try form.checkedParts())
        #expect(framing > 0)
        #expect(UInt64(framing) + form.contentLength == UInt64(encoded.count))
        #expect(MultipartEncoder(boundary: "B").framingLength(of: []) == 0)
    }

    @Test func writeEncodedDataRefusesAnExistingFileAndMatchesEncode() throws {
        let form = MultipartFormData()
        form.append(Data(repeating: 7, count: 200_000), withName: "big", fileName: "big.bin", mimeType: "application/octet-stream")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("af-form-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        try form.writeEncodedData(to: url)
        #expect(try Data(contentsOf: url) == form.encode())
        do {
            try form.writeEncodedData(to: url)
            Issue.record("expected outputStreamFileAlreadyExists")
        } catch let AFError.multipartEncodingFailed(reason) {
            guard case .outputStreamFileAlreadyExists = reason else {
                Issue.record("expected outputStreamFileAlreadyExists, got \(reason)")
                return
            }
        }
    }

    @Test func aFailedWriteLeavesNoFile() {
        let form = MultipartFormData()
        form.append(InputStream(data: Data("short".utf8)), withLength: 100, name: "s", fileName: "s", mimeType: "text/plain")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("af-form-\(UUID().uuidString)")
        #expect(throws: AFError.self) { try form.writeEncodedData(to: url) }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
