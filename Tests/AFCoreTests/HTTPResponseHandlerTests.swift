@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `onHTTPResponse`: the head is seen before the body; a disposition holds the body until it is
/// given, and `.cancel` ends the request without reading it.
@Suite(.timeLimit(.minutes(1))) struct HTTPResponseHandlerTests {
    private let handlerQueue = DispatchQueue(label: "test.http-response")

    @Test func theBodyWaitsForAllowAndThenArrivesWhole() async throws {
        let session = makeSession()
        let heads = Protected<[Int]>([])
        let answered = Protected(false)
        let request = session.request(Server.http("/static/1mb.bin"))
            .onHTTPResponse(on: handlerQueue) { response, completionHandler in
                heads.withLock { $0.append(response.statusCode) }
                // Answer later, from elsewhere: the body waits meanwhile.
                DispatchQueue.global().async {
                    answered.withLock { $0 = true }
                    completionHandler(.allow)
                }
            }
        let data = try await request.serializingData().value
        #expect(heads.value == [200] && answered.value)
        #expect(data.count == 1 << 20)
    }

    @Test func cancelEndsTheRequestBeforeTheBodyIsRead() async throws {
        let session = makeSession()
        let received = Protected(0)
        let monitor = ClosureEventMonitor(queue: DispatchQueue(label: "test.http-response.monitor"))
        monitor.dataTaskDidReceiveData = { _, _, data in received.withLock { $0 += data.count } }
        let monitored = makeSession(eventMonitors: [monitor])
        for session in [session, monitored] {
            let response = await session.request(Server.http("/static/1mb.bin"))
                .onHTTPResponse(on: handlerQueue) { _, completionHandler in completionHandler(.cancel) }
                .serializingData().response
            #expect(response.error?.isExplicitlyCancelledError == true)
            #expect(response.response?.statusCode == 200, "the head is known")
            #expect(response.data == nil || response.data?.isEmpty == true)
        }
        monitor.queue.sync {}
        #expect(received.value == 0, "no body byte was handed over")
    }

    @Test func theFormWithoutADispositionSeesTheHeadAndReadsOn() async throws {
        let session = makeSession()
        let seen = Protected<HTTPURLResponse?>(nil)
        let data = try await session.request(Server.http("/bench.json"))
            .onHTTPResponse(on: handlerQueue) { response in seen.withLock { $0 = response } }
            .serializingData().value
        #expect(data.count == 17)
        handlerQueue.sync {}
        #expect(seen.value?.statusCode == 200 && seen.value?.value(forHTTPHeaderField: "Content-Length") == "17")
    }

    /// As Alamofire's: the form without a disposition holds the body too, until it returned, so a
    /// stream's first chunk never reaches its handler before the head's handler ran.
    @Test func aStreamsFirstChunkComesAfterTheHeadsHandler() async throws {
        let session = makeSession()
        let events = Protected<[String]>([])
        let streamQueue = DispatchQueue(label: "test.stream")
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            session.streamRequest(Server.httpbin("/stream-bytes/5000?chunk_size=100"))
                .onHTTPResponse(on: handlerQueue) { _ in
                    events.withLock { $0.append("head") }
                    // Slow on purpose: a chunk let in meanwhile would be reported before "handled".
                    usleep(100_000)
                    events.withLock { $0.append("handled") }
                }
                .responseStream(on: streamQueue) { stream in
                    switch stream.event {
                    case .stream: events.withLock { $0.append("chunk") }
                    case .complete: continuation.resume()
                    }
                }
        }
        #expect(Array(events.value.prefix(3)) == ["head", "handled", "chunk"])
    }

    @Test func aRedirectIsNotHeldOnlyTheFinalResponse() async throws {
        let session = makeSession()
        let heads = Protected<[Int]>([])
        let data = try await session.request(Server.httpbin("/redirect/2"))
            .onHTTPResponse(on: handlerQueue) { response, completionHandler in
                heads.withLock { $0.append(response.statusCode) }
                completionHandler(.allow)
            }
            .serializingData().value
        #expect(heads.value == [200] && !data.isEmpty)
    }

    @Test func aRedirectNotFollowedIsTheResponseTheHandlerDecidesOn() async throws {
        let session = makeSession()
        let redirectBody = Data((0..<100).map { UInt8($0) })
        for disposition in [Request.ResponseDisposition.allow, .cancel] {
            let heads = Protected<[Int]>([])
            let response = await session.request(Server.faults("/redirect-body?size=100"))
                .redirect(using: .doNotFollow)
                .onHTTPResponse(on: handlerQueue) { response, completionHandler in
                    heads.withLock { $0.append(response.statusCode) }
                    DispatchQueue.global().async { completionHandler(disposition) }
                }
                .serializingData().response
            #expect(heads.value == [302], "\(disposition)")
            #expect(response.response?.statusCode == 302)
            switch disposition {
            case .allow:
                #expect(response.error == nil && response.data == redirectBody)
            case .cancel:
                #expect(response.error?.isExplicitlyCancelledError == true)
                #expect(response.data == nil || response.data?.isEmpty == true)
            }
        }
    }

    @Test func aRedirectNotFollowedWaitsForTheDispositionInAStream() async throws {
        let session = makeSession()
        let heads = Protected<[Int]>([])
        let received = Protected(Data())
        let completion = Protected<DataStreamRequest.Completion?>(nil)
        let done = OneShot()
        session.streamRequest(Server.faults("/redirect-body?size=100"))
            .redirect(using: .doNotFollow)
            .onHTTPResponse(on: handlerQueue) { response, completionHandler in
                heads.withLock { $0.append(response.statusCode) }
                completionHandler(.allow)
            }
            .responseStream(on: handlerQueue) { stream in
                switch stream.event {
                case let .stream(.success(chunk)): received.withLock { $0.append(chunk) }
                case let .complete(value):
                    completion.withLock { $0 = value }
                    done.fire()
                }
            }
        await done.wait()
        #expect(heads.value == [302])
        #expect(completion.value?.error == nil && completion.value?.response?.statusCode == 302)
        #expect(received.value == Data((0..<100).map { UInt8($0) }))
    }

    @Test func aRequestCancelledWhileItsUnfollowedRedirectWaitsEndsCancelled() async throws {
        let session = makeSession()
        // The handler never answers: the request is cancelled while the redirect waits.
        let request = Protected<DataRequest?>(nil)
        let made = session.request(Server.faults("/redirect-body?size=100"))
            .redirect(using: .doNotFollow)
            .onHTTPResponse(on: handlerQueue) { _, _ in request.value?.cancel() }
        request.withLock { $0 = made }
        let response = await made.serializingData().response
        #expect(response.error?.isExplicitlyCancelledError == true)
        #expect(response.response?.statusCode == 302)
    }

    /// A request whose unfollowed redirect waits for its disposition, suspended by its handler
    /// just before that handler answers `.allow`; returned once the answer was taken.
    private func redirectAllowedWhileSuspended(in session: Session) async -> (DataRequest, DataTask<Data>) {
        let request = Protected<DataRequest?>(nil)
        let allowed = OneShot()
        let made = session.request(Server.faults("/redirect-body?size=100"))
            .redirect(using: .doNotFollow)
            .onHTTPResponse(on: handlerQueue) { _, completionHandler in
                request.value?.suspend()
                completionHandler(.allow)
                allowed.fire()
            }
        request.withLock { $0 = made }
        let task = made.serializingData()
        await allowed.wait()
        // The suspension and the decision were both queued on the request's queue, in that order.
        made.underlyingQueue.sync {}
        return (made, task)
    }

    @Test func aRequestSuspendedWhileItsUnfollowedRedirectWaitsEndsOnlyOnceResumed() async throws {
        let session = makeSession()
        let (request, task) = await redirectAllowedWhileSuspended(in: session)
        let sessionTask = try #require(request.mutableState.withLock { $0.tasks.last })
        #expect(sessionTask.state == .suspended, "a suspended request does not end")
        #expect(!request.isFinished)
        request.resume()
        let response = await task.response
        #expect(response.error == nil && response.response?.statusCode == 302)
        #expect(response.data == Data((0..<100).map { UInt8($0) }))
        withExtendedLifetime(session) {}
    }

    @Test func aRequestCancelledAfterItsRedirectWasAllowedWhileSuspendedEndsCancelled() async {
        let session = makeSession()
        let (request, task) = await redirectAllowedWhileSuspended(in: session)
        request.cancel()
        let response = await task.response
        #expect(response.error?.isExplicitlyCancelledError == true)
        #expect(response.response?.statusCode == 302)
        withExtendedLifetime(session) {}
    }

    @Test func aStreamWaitsForTheDispositionToo() async throws {
        let session = makeSession()
        let chunks = Protected(0)
        let done = OneShot()
        let completion = Protected<DataStreamRequest.Completion?>(nil)
        session.streamRequest(Server.http("/static/1mb.bin"))
            .onHTTPResponse(on: handlerQueue) { _, completionHandler in completionHandler(.cancel) }
            .responseStream(on: handlerQueue) { stream in
                switch stream.event {
                case .stream: chunks.withLock { $0 += 1 }
                case let .complete(value):
                    completion.withLock { $0 = value }
                    done.fire()
                }
            }
        await done.wait()
        #expect(completion.value?.error?.isExplicitlyCancelledError == true)
        #expect(chunks.value == 0)
    }

    @Test func theAsyncFormsDecideAfterAwaiting() async throws {
        let session = makeSession()
        let cancelled = await session.request(Server.http("/static/1mb.bin"))
            .onHTTPResponse { (response: HTTPURLResponse) async -> Request.ResponseDisposition in
                await Task.yield()
                return response.statusCode == 200 ? .cancel : .allow
            }
            .serializingData().response
        #expect(cancelled.error?.isExplicitlyCancelledError == true)
        let seen = Protected<[Int]>([])
        let data = try await session.request(Server.http("/bench.json"))
            .onHTTPResponse { (response: HTTPURLResponse) async in seen.withLock { $0.append(response.statusCode) } }
            .serializingData().value
        #expect(data.count == 17 && seen.value == [200])
    }

    @Test func theProgressHandlersCanBeRead() {
        let session = makeSession()
        let queue = DispatchQueue(label: "test.progress")
        let request = session.request(Server.http("/bench.json")).downloadProgress(queue: queue) { _ in }
        #expect(request.downloadProgressHandler?.queue === queue && request.uploadProgressHandler == nil)
        request.cancel()
    }
}
