@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// DataStreamRequest: chunks as they arrive, serializers, validation, cancelling, back-pressure.
@Suite(.timeLimit(.minutes(1))) struct DataStreamTests {
    /// Gathers a stream's chunks and completion.
    final class Collector<Value: Sendable, Failure: Error>: Sendable {
        let values = Protected<[Value]>([])
        let errors = Protected<[Failure]>([])
        let completion = Protected<DataStreamRequest.Completion?>(nil)
        let completed = OneShot()

        var handler: DataStreamRequest.Handler<Value, Failure> {
            { stream in
                switch stream.event {
                case let .stream(.success(value)): self.values.withLock { $0.append(value) }
                case let .stream(.failure(error)): self.errors.withLock { $0.append(error) }
                case let .complete(completion):
                    self.completion.withLock { $0 = completion }
                    self.completed.fire()
                }
            }
        }
    }

    private let queue = DispatchQueue(label: "test.stream")

    @Test func streamsEveryByteAndCompletes() async throws {
        let session = makeSession()
        let collector = Collector<Data, Never>()
        session.streamRequest(Server.http("/static/1mb.bin"))
            .responseStream(on: queue, stream: collector.handler)
        await collector.completed.wait()
        let completion = try #require(collector.completion.value)
        #expect(completion.error == nil)
        #expect(completion.response?.statusCode == 200)
        let streamed = collector.values.value.reduce(Data(), +)
        let expected = try await session.request(Server.http("/static/1mb.bin")).serializingData().value
        #expect(streamed == expected)
        #expect(session.hasNoActiveRequests)
    }

    @Test func streamBytesArriveInChunks() async throws {
        let session = makeSession()
        let collector = Collector<Data, Never>()
        session.streamRequest(Server.httpbin("/stream-bytes/50000?chunk_size=1000"))
            .responseStream(on: queue, stream: collector.handler)
        await collector.completed.wait()
        #expect(collector.values.value.reduce(0) { $0 + $1.count } == 50000)
        #expect(collector.completion.value?.error == nil)
    }

    @Test func dripArrivesInSeveralChunks() async throws {
        let session = makeSession()
        let collector = Collector<String, Never>()
        session.streamRequest(Server.httpbin("/drip?numbytes=5&duration=0.5&delay=0"))
            .responseStreamString(on: queue, stream: collector.handler)
        await collector.completed.wait()
        #expect(collector.values.value.joined() == "*****")
        #expect(collector.values.value.count > 1)
    }

    @Test func decodesEachChunk() async throws {
        struct Line: Decodable, Sendable { let id: Int; let url: String }
        let session = makeSession()
        let collector = Collector<Line, AFError>()
        session.streamRequest(Server.httpbin("/stream/1"))
            .responseStreamDecodable(of: Line.self, on: queue, stream: collector.handler)
        await collector.completed.wait()
        #expect(collector.values.value.map(\.id) == [0])
        #expect(collector.errors.value.isEmpty)
    }

    @Test func aChunkThatFailsToDecodeCancelsWhenAsked() async throws {
        struct Line: Decodable, Sendable { let id: Int }
        let session = makeSession()
        let collector = Collector<Line, AFError>()
        session.streamRequest(Server.httpbin("/stream-bytes/5000?seed=1"), automaticallyCancelOnStreamError: true)
            .responseStreamDecodable(of: Line.self, on: queue, stream: collector.handler)
        await collector.completed.wait()
        #expect(collector.errors.value.first?.isResponseSerializationError == true)
        #expect(collector.completion.value?.error?.isExplicitlyCancelledError == true)
    }

    @Test func cancellingFromTheHandlerStopsTheStream() async throws {
        let session = makeSession()
        let seen = Protected(0)
        let completion = Protected<DataStreamRequest.Completion?>(nil)
        let completed = OneShot()
        session.streamRequest(Server.httpbin("/drip?numbytes=20&duration=2&delay=0"))
            .responseStream(on: queue) { stream in
                switch stream.event {
                case .stream:
                    seen.withLock { $0 += 1 }
                    stream.cancel()
                case let .complete(value):
                    completion.withLock { $0 = value }
                    completed.fire()
                }
            }
        await completed.wait()
        #expect(seen.value == 1)
        #expect(completion.value?.error?.isExplicitlyCancelledError == true)
    }

    @Test func aThrowingHandlerCancelsWithItsError() async throws {
        struct Stop: Error {}
        let session = makeSession()
        let completion = Protected<DataStreamRequest.Completion?>(nil)
        let completed = OneShot()
        session.streamRequest(Server.httpbin("/drip?numbytes=20&duration=2&delay=0"))
            .responseStream(on: queue) { stream in
                if case let .complete(value) = stream.event {
                    completion.withLock { $0 = value }
                    completed.fire()
                    return
                }
                throw Stop()
            }
        await completed.wait()
        guard case let .responseSerializationFailed(.customSerializationFailed(error)) = completion.value?.error else {
            Issue.record("expected the handler's error, got \(String(describing: completion.value?.error))")
            return
        }
        #expect(error is Stop)
    }

    @Test func validationFailsBeforeAnyChunk() async throws {
        let monitor = ClosureEventMonitor(queue: DispatchQueue(label: "test.monitor"))
        let monitored = Protected(0)
        monitor.requestDidValidateRequestResponseWithResult = { _, _, _, _ in monitored.withLock { $0 += 1 } }
        let session = makeSession(eventMonitors: [monitor])
        let collector = Collector<Data, Never>()
        let validated = Protected<[Bool]>([])
        session.streamRequest(Server.httpbin("/status/500"))
            .validate { _, response in
                validated.withLock { $0.append(response.statusCode == 500) }
                return .success(())
            }
            .validate()
            .responseStream(on: queue, stream: collector.handler)
        await collector.completed.wait()
        #expect(collector.values.value.isEmpty)
        #expect(collector.completion.value?.error?.responseCode == 500)
        #expect(validated.value == [true])
        // Both validators ran (the second failed); monitors hear of each. The monitor queue is
        // serial and got its events before the completion was queued.
        monitor.queue.sync {}
        #expect(monitored.value == 2)
    }

    /// A loop that stops early without cancelling the request leaves chunks it never took:
    /// they no longer hold the paused transfer back, which runs to its end (it used to stay
    /// paused forever, the request never finishing).
    @Test func aLoopThatStopsEarlyWithoutCancellingLetsTheTransferFinish() async throws {
        // Started by hand once both consumers are in place: started by the first, the transfer
        // could end before the loop's stream is added, and never pause for it.
        let session = makeSession(startRequestsImmediately: false)
        let request = session.streamRequest(Server.http("/static/4mb.bin"))
        let paused = OneShot()
        request.flowControl.onPause { paused.fire() }
        let collector = Collector<Data, Never>()
        request.responseStream(on: queue) { try collector.handler($0) }
        do {
            var iterator = request.streamTask().streamingData(automaticallyCancelling: false).makeAsyncIterator()
            request.resume()
            _ = await iterator.next()
            await paused.wait()
        }
        await collector.completed.wait()
        #expect(!request.isCancelled)
        #expect(request.error == nil)
        #expect(collector.values.value.reduce(0) { $0 + $1.count } == 4 << 20)
    }

    @Test func aSlowConsumerPausesTheTransfer() async throws {
        let session = makeSession()
        let request = session.streamRequest(Server.http("/static/4mb.bin"))
        let paused = OneShot()
        request.flowControl.onPause { paused.fire() }
        let release = DispatchSemaphore(value: 0)
        let received = Protected(Data())
        let collector = Collector<Data, Never>()
        request.responseStream(on: queue) { stream in
            if case let .stream(.success(data)) = stream.event {
                // The first chunk waits until the transfer has paused itself.
                if received.withLock({ $0.isEmpty }) { release.wait() }
                received.withLock { $0.append(data) }
            }
            try collector.handler(stream)
        }
        await paused.wait()
        let backlogWhenPaused = request.flowControl.largestBacklog
        release.signal()
        await collector.completed.wait()
        #expect(backlogWhenPaused >= request.flowControl.limit)
        #expect(request.flowControl.largestBacklog < request.flowControl.limit + (256 << 10))
        let expected = try await session.request(Server.http("/static/4mb.bin")).serializingData().value
        #expect(received.value == expected)
    }

    @Test func readsThroughAnInputStream() async throws {
        let session = makeSession()
        let request = session.streamRequest(Server.http("/static/1mb.bin"))
        nonisolated(unsafe) let stream = try #require(request.asInputStream())
        let data: Data = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                stream.open()
                var data = Data()
                var buffer = [UInt8](repeating: 0, count: 7000)
                while true {
                    let count = stream.read(&buffer, maxLength: buffer.count)
                    if count <= 0 { break }
                    data.append(buffer, count: count)
                }
                stream.close()
                continuation.resume(returning: data)
            }
        }
        let expected = try await session.request(Server.http("/static/1mb.bin")).serializingData().value
        #expect(data == expected)
    }

    @Test func redirectBodiesAreNotStreamed() async throws {
        let session = makeSession()
        let collector = Collector<Data, Never>()
        // nginx's 302 carries an HTML body, which must not reach the stream; the target is a
        // static file (httpbin's seeded /bytes share one generator among its threads, so a
        // concurrent request could change them).
        session.streamRequest(Server.http("/redirect-to-small"))
            .responseStream(on: queue, stream: collector.handler)
        await collector.completed.wait()
        let expected = try await session.request(Server.http("/static/small.json")).serializingData().value
        #expect(collector.values.value.reduce(Data(), +) == expected)
    }

    @Test func redirectBodiesAreNotStreamedNorReportedWhenAMonitorWatchesData() async throws {
        let monitor = ClosureEventMonitor(queue: DispatchQueue(label: "test.monitor"))
        let heard = Protected(Data())
        monitor.dataTaskDidReceiveData = { _, _, data in heard.withLock { $0.append(data) } }
        let session = makeSession(eventMonitors: [monitor])
        let collector = Collector<Data, Never>()
        // A 302 with a 100-byte body, to a 3-byte body.
        session.streamRequest(Server.faults("/redirect-body?size=100"))
            .responseStream(on: queue, stream: collector.handler)
        await collector.completed.wait()
        #expect(collector.completion.value?.response?.statusCode == 200)
        #expect(collector.values.value.reduce(Data(), +) == Data([0, 1, 2]))
        monitor.queue.sync {}
        #expect(heard.value == Data([0, 1, 2]))
    }

    @Test func aRedirectNotFollowedIsStreamedAsTheResponse() async throws {
        let monitor = ClosureEventMonitor(queue: DispatchQueue(label: "test.monitor"))
        let heard = Protected<(statusCodes: [Int], data: Data)>(([], Data()))
        monitor.dataTaskDidReceiveResponse = { _, _, response in
            heard.withLock { $0.statusCodes.append((response as? HTTPURLResponse)?.statusCode ?? 0) }
        }
        monitor.dataTaskDidReceiveData = { _, _, data in heard.withLock { $0.data.append(data) } }
        for monitors in [[], [monitor]] as [[any EventMonitor]] {
            let session = makeSession(eventMonitors: monitors)
            let collector = Collector<Data, Never>()
            session.streamRequest(Server.faults("/redirect-body?size=100"))
                .redirect(using: .doNotFollow)
                .responseStream(on: queue, stream: collector.handler)
            await collector.completed.wait()
            #expect(collector.completion.value?.error == nil)
            #expect(collector.completion.value?.response?.statusCode == 302)
            #expect(collector.values.value.reduce(Data(), +) == Data((0..<100).map { UInt8($0) }))
        }
        monitor.queue.sync {}
        #expect(heard.value.statusCodes == [302])
        #expect(heard.value.data == Data((0..<100).map { UInt8($0) }))
    }
}

/// DataStreamRequest through async/await.
@Suite(.timeLimit(.minutes(1))) struct DataStreamAsyncTests {
    @Test func streamingDataYieldsEveryByteThenTheCompletion() async throws {
        let session = makeSession()
        var data = Data()
        var completion: DataStreamRequest.Completion?
        for await stream in session.streamRequest(Server.http("/static/1mb.bin")).streamTask().streamingData() {
            switch stream.event {
            case let .stream(.success(chunk)): data.append(chunk)
            case let .complete(value): completion = value
            }
        }
        #expect(completion?.error == nil)
        let expected = try await session.request(Server.http("/static/1mb.bin")).serializingData().value
        #expect(data == expected)
    }

    @Test func streamingStringsAndDecodables() async throws {
        struct Line: Decodable, Sendable { let id: Int }
        let session = makeSession()
        var text = ""
        for await stream in session.streamRequest(Server.httpbin("/drip?numbytes=4&duration=0.2&delay=0")).streamTask().streamingStrings() {
            text += stream.value ?? ""
        }
        #expect(text == "****")
        var ids: [Int] = []
        for await stream in session.streamRequest(Server.httpbin("/stream/1")).streamTask().streamingDecodables(Line.self) {
            if let line = stream.value { ids.append(line.id) }
        }
        #expect(ids == [0])
    }

    @Test func leavingTheLoopEarlyCancelsTheRequest() async throws {
        let session = makeSession()
        // A terabyte body: the request cannot end on its own while the test runs, however loaded
        // the machine (a 30 s drip from httpbin once did, under TSan with every core busy).
        let request = session.streamRequest(Server.faults("/blob?size=\(1 << 40)"))
        let task = request.streamTask()
        do {
            for await stream in task.streamingData() where stream.value != nil {
                break
            }
        }
        let completion: DataStreamRequest.Completion = await response { done in
            request.responseStream(on: DispatchQueue(label: "test.completion")) { stream in
                if let completion = stream.completion { done(completion) }
            }
        }
        #expect(completion.error?.isExplicitlyCancelledError == true)
        #expect(request.isCancelled)
    }

    @Test func aSlowLoopPausesTheTransfer() async throws {
        let session = makeSession()
        let request = session.streamRequest(Server.http("/static/4mb.bin"))
        let paused = OneShot()
        request.flowControl.onPause { paused.fire() }
        var iterator = request.streamTask().streamingData().makeAsyncIterator()
        var data = Data()
        // Take one chunk, then stop taking until the transfer has paused itself.
        if let first = await iterator.next(), let chunk = first.value { data.append(chunk) }
        await paused.wait()
        while let stream = await iterator.next() {
            if let chunk = stream.value { data.append(chunk) }
        }
        #expect(request.flowControl.largestBacklog < request.flowControl.limit + (256 << 10))
        let expected = try await session.request(Server.http("/static/4mb.bin")).serializingData().value
        #expect(data == expected)
    }
}
