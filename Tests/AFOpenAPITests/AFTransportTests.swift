import AFCache
import AFCore
import AFOpenAPI
import AFTestSupport
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

/// A client generated at build time from `openapi.yaml`, run on AF through `AFTransport` against
/// httpbin (behind nginx, over HTTP/1.1 and HTTP/2) and the fault server.
@Suite(.timeLimit(.minutes(1))) struct AFTransportTests {
    /// Records what the Session saw of the client's requests.
    final class Recorder: EventMonitor {
        let queue = DispatchQueue(label: "af.test.openapi.recorder")
        let protocols = Protected<[String]>([])
        let fetchTypes = Protected<[TransactionMetrics.ResourceFetchType]>([])
        let resumed = OneShot()

        func request(_ request: Request, didGatherMetrics metrics: TaskMetrics) {
            protocols.withLock { $0 += metrics.transactionMetrics.compactMap(\.networkProtocolName) }
            fetchTypes.withLock { $0 += metrics.transactionMetrics.map(\.resourceFetchType) }
        }

        func requestDidResume(_ request: Request) { resumed.fire() }
    }

    /// Adds a header to every request, as an interceptor of the Session.
    struct Stamp: RequestAdapter {
        func adapt(_ urlRequest: URLRequest, for session: Session,
                   completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void) {
            var request = urlRequest
            request.setValue("stamped", forHTTPHeaderField: "X-Stamp")
            completion(.success(request))
        }
    }

    private func client(_ base: String, session: Session) throws -> Client {
        Client(serverURL: try #require(URL(string: base)), transport: AFTransport(session: session))
    }

    @Test(arguments: ["http", "https"])
    func operationsRunThroughTheSessionAndItsInterceptors(scheme: String) async throws {
        let recorder = Recorder()
        let session = makeSession(interceptor: Interceptor(adapters: [Stamp()]), eventMonitors: [recorder])
        let base = scheme == "http" ? Server.http("") : Server.https("")
        let output = try await client(base, session: session).echo(query: .init(name: "alice & bob"),
                                                                     headers: .init(X_hyphen_Trace: "t-1"))
        let echo = try output.ok.body.json
        #expect(echo.args?.additionalProperties["name"] == "alice & bob")
        #expect(echo.headers.additionalProperties["X-Trace"] == "t-1")
        #expect(echo.headers.additionalProperties["X-Stamp"] == "stamped", "the Session's adapter ran")
        let protocols = recorder.protocols.withLock { $0 }
        #expect(protocols == [scheme == "http" ? "http/1.1" : "h2"])
    }

    @Test func theSessionsRetryPolicyRetriesAnOperation() async throws {
        let session = makeSession(interceptor: RetryPolicy(exponentialBackoffScale: 0.01))
        let output = try await client(Server.faults(""), session: session)
            .flakyClose(path: .init(key: uniqueKey()), query: .init(fail: 1))
        #expect(try output.ok.body.json.ok, "the first connection closed unanswered; the retry got the answer")
    }

    @Test func theSessionsCacheAnswersARepeatedOperation() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("af-openapi-cache-\(UUID().uuidString).sqlite")
        defer { ["", "-wal", "-shm"].forEach { try? FileManager.default.removeItem(atPath: file.path + $0) } }
        let configuration = URLSessionConfiguration.af.default
        configuration.urlCache = try SQLiteURLCache(fileURL: file, memoryCapacity: 0, diskCapacity: 128 << 20)
        let recorder = Recorder()
        let session = makeSession(configuration: configuration, eventMonitors: [recorder])
        let client = try client(Server.http(""), session: session)
        var bodies: [Data] = []
        for _ in 0..<2 {
            let body = try await client.fresh(path: .init(name: "4mb.bin")).ok.body.plainText
            bodies.append(try await Data(collecting: body, upTo: 8 << 20))
        }
        #expect(bodies[0].count == 4 << 20 && bodies[1] == bodies[0])
        #expect(recorder.fetchTypes.withLock { $0 } == [.networkLoad, .localCache])
    }

    @Test func aStreamedRequestBodyArrivesWhole() async throws {
        let session = makeSession()
        let client = try client(Server.faults(""), session: session)
        let bytes = [UInt8](patternBytes(8 << 20) { UInt8(truncatingIfNeeded: $0 &* 31) })
        let expected = try sha256Hex(Data(bytes))
        for length in [HTTPBody.Length.known(Int64(bytes.count)), .unknown] {
            // Read once, in chunks of 64 KiB, as a generated client's caller might produce them.
            let chunks = AsyncStream<ArraySlice<UInt8>> { continuation in
                for start in stride(from: 0, to: bytes.count, by: 1 << 16) {
                    continuation.yield(bytes[start..<min(start + (1 << 16), bytes.count)])
                }
                continuation.finish()
            }
            let sink = try await client.sink(query: .init(digest: .sha256), body: .binary(HTTPBody(chunks, length: length))).ok.body.json
            #expect(sink.bytes == bytes.count)
            #expect(sink.sha256 == expected)
            #expect(sink.chunked == (length == .unknown), "an unknown length is sent chunked")
        }
    }

    @Test func aSmallBodyIsSentAgainAfterA307AndAOneShotBodyIsRefused() async throws {
        let session = makeSession()
        let client = try client(Server.httpbin(""), session: session)
        let replayable = try await client.redirect(query: .init(url: "/anything", status_code: 307),
                                                  body: .binary(HTTPBody("resend me"))).ok.body.json
        #expect(replayable.data == "resend me")

        let once = AsyncStream<ArraySlice<UInt8>> { continuation in
            continuation.yield(ArraySlice("read once".utf8))
            continuation.finish()
        }
        await #expect {
            _ = try await client.redirect(query: .init(url: "/anything", status_code: 307),
                                          body: .binary(HTTPBody(once, length: .known(9))))
        } throws: { error in
            let underlying = (error as? ClientError)?.underlyingError as? AFError
            return underlying?.underlyingError.flatMap { $0 as? URLError }?.code == .requestBodyStreamExhausted
        }
    }

    @Test func aResponseBodyStreamsAsItArrives() async throws {
        let session = makeSession()
        let size = 8 << 20
        let output = try await client(Server.faults(""), session: session).blob(query: .init(size: size))
        let body = try output.ok.body.binary
        #expect(body.length == .known(Int64(size)))
        // The /blob pattern (byte i = i mod 256), compared a chunk at a time (a loop per byte would
        // hold a shared thread for seconds in a debug build).
        let expected = patternBytes(size) { UInt8(truncatingIfNeeded: $0) }
        var received = 0, chunks = 0, patterned = true
        for try await chunk in body {
            let end = received + chunk.count
            if end > size || Data(chunk) != expected.subdata(in: received..<end) { patterned = false }
            received = end
            chunks += 1
        }
        #expect(received == size)
        #expect(patterned)
        #expect(chunks > 1, "handed over in pieces, not as one buffer")
    }

    @Test func noContentHasNoBody() async throws {
        let session = makeSession()
        let output = try await client(Server.httpbin(""), session: session).status(path: .init(code: 204))
        #expect(throws: Never.self) { try output.noContent }
        let teapot = try await client(Server.httpbin(""), session: session).status(path: .init(code: 418))
        guard case let .default(statusCode, _) = teapot else { Issue.record("\(teapot)"); return }
        #expect(statusCode == 418)
    }

    @Test func failuresReachTheClientAsAFErrors() async throws {
        let session = makeSession()
        // Nothing listens there: the connection is refused before any response.
        let refused = try client("http://127.0.0.1:1", session: session)
        await #expect {
            _ = try await refused.status(path: .init(code: 200))
        } throws: { error in
            guard let clientError = error as? ClientError, let underlying = clientError.underlyingError as? AFError else { return false }
            return clientError.operationID == "status" && underlying.isSessionTaskError
        }
        // A body cut short fails its reader.
        let output = try await client(Server.faults(""), session: session).closeMidBody()
        let body = try output.ok.body.binary
        await #expect(throws: AFError.self) {
            for try await _ in body {}
        }
    }

    @Test func cancellingTheTaskCancelsTheRequest() async throws {
        let recorder = Recorder()
        let session = makeSession(eventMonitors: [recorder])
        let client = try client(Server.faults(""), session: session)
        let call = Task { try await client.stall() }
        await recorder.resumed.wait()
        call.cancel()
        await #expect {
            _ = try await call.value
        } throws: { error in
            ((error as? ClientError)?.underlyingError as? AFError)?.isExplicitlyCancelledError == true
        }
    }

    /// A request that times out while its body waits for the next chunk lets go of the body:
    /// the task taking its chunks is cancelled (it used to wait forever, holding the body).
    @Test func aRequestEndingWhileItsBodyWaitsCancelsTheBody() async throws {
        let configuration = URLSessionConfiguration.af.default
        configuration.timeoutIntervalForRequest = 1
        let session = makeSession(configuration: configuration)
        let client = try client(Server.faults(""), session: session)
        let terminated = OneShot()
        let stalling = AsyncStream<ArraySlice<UInt8>> { continuation in
            continuation.onTermination = { _ in terminated.fire() }
            continuation.yield(ArraySlice(repeating: 1, count: 1 << 10))
        }
        await #expect(throws: ClientError.self) {
            _ = try await client.sink(query: .init(digest: .sha256), body: .binary(HTTPBody(stalling, length: .unknown)))
        }
        await terminated.wait()
    }

    @Test func aFailingRequestBodyFailsTheRequest() async throws {
        struct Broken: Error {}
        let session = makeSession()
        let client = try client(Server.faults(""), session: session)
        let failing = AsyncThrowingStream<ArraySlice<UInt8>, any Error> { continuation in
            continuation.yield(ArraySlice(repeating: 1, count: 1 << 16))
            continuation.finish(throwing: Broken())
        }
        await #expect(throws: ClientError.self) {
            _ = try await client.sink(query: .init(digest: .sha256), body: .binary(HTTPBody(failing, length: .unknown)))
        }
    }
}
