@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// DownloadRequest: destinations, serializers on the file, validation, progress, errors.
@Suite(.timeLimit(.minutes(1))) struct DownloadTests {
    private func scratchDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("af-downloads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Whether the temporary file `request` wrote to is gone.
    private func temporaryFileIsGone(_ request: DownloadRequest) -> Bool {
        !FileManager.default.fileExists(atPath: request.downloadState.value.temporaryFile.path)
    }

    @Test func downloadsToTheDestination() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("nested/deeper/1mb.bin")
        let session = makeSession()
        let request = session.download(Server.http("/static/1mb.bin"), to: { _, _ in
            (destination, [.createIntermediateDirectories])
        })
        let fileURL = try await request.serializingDownloadedFileURL().value
        #expect(fileURL == destination)
        #expect(request.fileURL == destination)
        let expected = try await session.request(Server.http("/static/1mb.bin")).serializingData().value
        #expect(try Data(contentsOf: destination) == expected)
    }

    @Test func withoutADestinationTheFileStaysInTheTemporaryDirectory() async throws {
        let session = makeSession()
        let response = await session.download(Server.http("/static/small.json")).serializingDownloadedFileURL().response
        let fileURL = try #require(response.value)
        defer { try? FileManager.default.removeItem(at: fileURL) }
        #expect(fileURL.deletingLastPathComponent().standardizedFileURL.path
                    == FileManager.default.temporaryDirectory.standardizedFileURL.path)
        #expect(fileURL.lastPathComponent.hasPrefix("Alamofire_"))
        #expect(try String(contentsOf: fileURL, encoding: .utf8) == #"{"hello":"world"}"#)
    }

    @Test func everySerializerReadsTheFile() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = makeSession()
        let destination: DownloadRequest.Destination = { _, _ in
            (directory.appendingPathComponent(UUID().uuidString), [])
        }
        let data = try await session.download(Server.http("/static/small.json"), to: destination).serializingData().value
        #expect(data == Data(#"{"hello":"world"}"#.utf8))
        let string = try await session.download(Server.http("/static/small.json"), to: destination).serializingString().value
        #expect(string == #"{"hello":"world"}"#)
        struct Hello: Decodable, Sendable { let hello: String }
        let decoded = try await session.download(Server.http("/static/small.json"), to: destination)
            .serializingDecodable(Hello.self).value
        #expect(decoded.hello == "world")

        let unserialized: AFDownloadResponse<URL?> = await response { done in
            session.download(Server.http("/static/small.json"), to: destination).response { done($0) }
        }
        #expect(unserialized.fileURL != nil)
        #expect(unserialized.value == unserialized.fileURL)
        let handled: AFDownloadResponse<String> = await response { done in
            session.download(Server.http("/static/small.json"), to: destination).responseString { done($0) }
        }
        #expect(handled.value == #"{"hello":"world"}"#)
        #expect(handled.resumeData == nil)
        let urlResponse: AFDownloadResponse<URL> = await response { done in
            session.download(Server.http("/static/small.json"), to: destination).responseURL { done($0) }
        }
        #expect(urlResponse.value?.deletingLastPathComponent().path == directory.path)
    }

    @Test func removePreviousFileReplacesAnExistingFile() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("small.json")
        try Data("old".utf8).write(to: destination)
        let session = makeSession()
        let replaced = try await session.download(Server.http("/static/small.json"), to: { _, _ in
            (destination, [.removePreviousFile])
        }).serializingString().value
        #expect(replaced == #"{"hello":"world"}"#)
    }

    /// A directory where the file should go is not removed by `.removePreviousFile` (the name
    /// may come from the server): the move fails and the directory keeps its contents.
    @Test func removePreviousFileNeverRemovesADirectory() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("small.json")
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: false)
        let kept = destination.appendingPathComponent("keep.txt")
        try Data("mine".utf8).write(to: kept)
        let session = makeSession()
        let request = session.download(Server.http("/static/small.json"), to: { _, _ in (destination, [.removePreviousFile]) })
        let response = await request.serializingDownloadedFileURL().response
        #expect(response.error?.isDownloadedFileMoveError == true)
        #expect(try String(contentsOf: kept, encoding: .utf8) == "mine")
        #expect(temporaryFileIsGone(request))
    }

    /// On another file system (/dev/shm is a tmpfs, the temporary directory is not) the previous
    /// file is replaced by a complete copy, and no copy is left beside it.
    @Test func removePreviousFileReplacesAFileOnAnotherFileSystem() async throws {
        let directory = URL(fileURLWithPath: "/dev/shm").appendingPathComponent("af-downloads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("small.json")
        try Data("old".utf8).write(to: destination)
        let session = makeSession()
        let request = session.download(Server.http("/static/small.json"), to: { _, _ in (destination, [.removePreviousFile]) })
        let url = try await request.serializingDownloadedFileURL().value
        #expect(url == destination)
        #expect(try String(contentsOf: destination, encoding: .utf8) == #"{"hello":"world"}"#)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["small.json"])
        #expect(temporaryFileIsGone(request))
    }

    @Test func anExistingFileWithoutRemovePreviousFileIsAMoveFailure() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("small.json")
        try Data("old".utf8).write(to: destination)
        let session = makeSession()
        let request = session.download(Server.http("/static/small.json"), to: { _, _ in (destination, []) })
        let response = await request.serializingDownloadedFileURL().response
        guard case let .downloadedFileMoveFailed(_, source, failedDestination) = response.error else {
            Issue.record("expected downloadedFileMoveFailed, got \(String(describing: response.error))")
            return
        }
        #expect(failedDestination == destination)
        #expect(!FileManager.default.fileExists(atPath: source.path))
        #expect(try String(contentsOf: destination, encoding: .utf8) == "old")
        #expect(temporaryFileIsGone(request))
    }

    @Test func aMissingDirectoryWithoutTheOptionIsAMoveFailure() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = makeSession()
        let response = await session.download(Server.http("/static/small.json"), to: { _, _ in
            (directory.appendingPathComponent("missing/small.json"), [])
        }).serializingData().response
        #expect(response.error?.isDownloadedFileMoveError == true)
    }

    @Test func validationSeesTheFile() async throws {
        let session = makeSession()
        let seen = Protected<URL?>(nil)
        let response = await session.download(Server.httpbin("/status/404"))
            .validate { _, response, fileURL in
                seen.withLock { $0 = fileURL }
                return .success(())
            }
            .validate()
            .serializingData().response
        #expect(response.error?.responseCode == 404)
        #expect(seen.value != nil)
        if let fileURL = response.fileURL { try? FileManager.default.removeItem(at: fileURL) }

        let accepted = await session.download(Server.httpbin("/json"))
            .validate(contentType: ["application/json"]).validate(statusCode: [200])
            .serializingDownloadedFileURL().response
        #expect(accepted.error == nil)
        let rejected = await session.download(Server.httpbin("/json"))
            .validate(contentType: ["image/png"])
            .serializingDownloadedFileURL().response
        #expect(rejected.error?.responseContentType == "application/json")
        #expect(rejected.error?.acceptableContentTypes == ["image/png"])
        for url in [accepted.fileURL, rejected.fileURL].compactMap({ $0 }) { try? FileManager.default.removeItem(at: url) }
    }

    @Test func anErrorBodyIsDownloadedToo() async throws {
        let session = makeSession()
        let response = await session.download(Server.faults("/no-such-path")).serializingString().response
        #expect(response.response?.statusCode == 404)
        #expect(response.value == "not found")
        if let fileURL = response.fileURL { try? FileManager.default.removeItem(at: fileURL) }
    }

    @Test func progressReachesTheFileSize() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = makeSession()
        let updates = Protected<[Int64]>([])
        let request = session.download(Server.http("/static/1mb.bin"), to: { _, _ in
            (directory.appendingPathComponent("1mb.bin"), [])
        }).downloadProgress(queue: DispatchQueue(label: "test.progress")) { progress in
            updates.withLock { $0.append(progress.completedUnitCount) }
        }
        _ = try await request.serializingDownloadedFileURL().value
        #expect(request.downloadProgress.completedUnitCount == 1 << 20)
        #expect(request.downloadProgress.totalUnitCount == 1 << 20)
    }

    @Test func aTransportFailureRemovesTheTemporaryFile() async throws {
        let session = makeSession()
        // No validator: nothing to resume, so nothing is kept.
        let request = session.download(Server.faults("/close-mid-body"))
        let response = await request.serializingData().response
        #expect(response.error?.isSessionTaskError == true)
        #expect(response.resumeData == nil)
        #expect(response.fileURL == nil)
        #expect(temporaryFileIsGone(request))
    }

    @Test func aCancelledDownloadLeavesNoFiles() async throws {
        let session = makeSession()
        let request = session.download(Server.faults("/stall"))
        let task = request.serializingDownloadedFileURL()
        _ = await response { done in request.onURLSessionTaskCreation(on: .main) { done($0) } }
        request.cancel()
        let result = await task.response
        #expect(result.error?.isExplicitlyCancelledError == true)
        #expect(request.resumeData == nil)
        #expect(temporaryFileIsGone(request))
    }

    @Test func anUnwritableTemporaryLocationFailsClearly() async throws {
        // /dev/full takes the open and refuses every write (ENOSPC), as a full disk does; it is
        // no regular file, so the cleanup must leave it alone.
        let session = makeSession()
        let request = session.download(Server.http("/static/1mb.bin"))
        request.downloadState.withLock { $0.temporaryFile = URL(fileURLWithPath: "/dev/full") }
        let response = await request.serializingData().response
        #expect(response.error?.urlErrorCode == .cannotWriteToFile)
        #expect(FileManager.default.fileExists(atPath: "/dev/full"))
    }

    @Test func suggestedDestinationUsesContentDisposition() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = makeSession()
        let url = Server.httpbin("/response-headers?Content-Disposition=attachment%3B%20filename%3D%22..%2F..%2Fetc%2Fpasswd%22")
        let suggested = DownloadRequest.suggestedDownloadDestination(for: .documentDirectory)
        let capture = Protected<URL?>(nil)
        let response = await session.download(url, to: { temporaryURL, response in
            let (proposed, options) = suggested(temporaryURL, response)
            capture.withLock { $0 = proposed }
            return (directory.appendingPathComponent(proposed.lastPathComponent), options)
        }).serializingDownloadedFileURL().response
        let proposed = try #require(capture.value)
        #expect(proposed.lastPathComponent == "passwd")
        let documents = try #require(FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first)
        #expect(proposed.deletingLastPathComponent().standardizedFileURL.path == documents.standardizedFileURL.path)
        #expect(response.value == directory.appendingPathComponent("passwd"))
    }

    @Test func downloadEventsReachMonitors() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let monitor = ClosureEventMonitor(queue: DispatchQueue(label: "test.monitor"))
        let events = Protected<[String]>([])
        monitor.requestDidCreateDestinationURL = { _, _ in events.withLock { $0.append("destination") } }
        monitor.requestDidFinishDownloadingUsingTaskWithResult = { _, _, result in
            events.withLock { $0.append(result.isSuccess ? "finished" : "failed") }
        }
        monitor.requestDidValidateRequestResponseFileURLWithResult = { _, _, _, _, _ in events.withLock { $0.append("validated") } }
        let parsed = OneShot()
        monitor.requestDidParseDownloadResponse = { _, _ in
            events.withLock { $0.append("parsed") }
            parsed.fire()
        }
        let session = makeSession(eventMonitors: [monitor])
        session.download(Server.http("/static/small.json"), to: { _, _ in
            (directory.appendingPathComponent("small.json"), [])
        }).validate().response(queue: .asyncCompletion) { _ in }
        await parsed.wait()
        #expect(events.value == ["destination", "finished", "validated", "validated", "parsed"])
    }
}

extension Result {
    var isSuccess: Bool { if case .success = self { true } else { false } }
}
