@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The trips of a request on a queue of its own (a session with no hook, a request with no
/// interceptor, made outside a Swift task or while no other request of its session is active):
/// its setup runs on the caller's thread, inside the request's queue, so the first trip is to the
/// engine; when other transfers run, the engine hands the request's end to its handler's queue,
/// which completes it inside the request's queue and calls the handler where it already is. A
/// trip added back fails here. (The stalled transfers that keep the engine busy are handed to
/// the engine before the measured request's, so that they still run when it ends; see
/// `stall(in:)`.)
@Suite(.timeLimit(.minutes(1))) struct OwnQueueHandOffTests {
    /// A request held by the server, handed to the engine before this returns: on `rootQueue`
    /// (made inside the test's task while the measured request is active) its setup is queued
    /// there as its handler is added, and the wait goes behind it; on a queue of its own it is
    /// set up as its handler is added. The engine takes starts in order, so the transfer runs
    /// when the measured request's, started after, ends.
    static func stall(in session: Session) async -> DataRequest {
        let stalled = session.request(Server.faults("/stall"))
        stalled.response(queue: .global()) { _ in }
        await withCheckedContinuation { continuation in session.rootQueue.async { continuation.resume() } }
        return stalled
    }

    @Test func aRequestOfAHooklessSessionHasAQueueOfItsOwn() {
        let session = makeSession()
        let request = session.request(Server.http("/bench.json"))
        #expect(request.ownsQueue)
        #expect(request.underlyingQueue !== session.rootQueue)
        #expect(request.serializationQueue === request.underlyingQueue)
    }

    @Test func aRequestMadeOutsideATaskWhileAnotherIsActiveHasAQueueOfItsOwn() async throws {
        let session = makeSession()
        let first = session.request(Server.http("/bench.json"))
        let second = await outsideAnyTask { session.request(Server.http("/bench.json")) }
        #expect(first.ownsQueue && second.ownsQueue)
        #expect(second.underlyingQueue !== first.underlyingQueue && second.underlyingQueue !== session.rootQueue)
        #expect(await first.serializingData().response.error == nil)
        #expect(await second.serializingData().response.error == nil)
    }

    /// Its end would resume the awaiting task from `rootQueue` either way.
    @Test func aRequestMadeInsideATaskWhileAnotherIsActiveSharesRootQueue() async throws {
        #expect(withUnsafeCurrentTask { $0 != nil })
        let session = makeSession()
        let first = session.request(Server.http("/bench.json"))
        let second = session.request(Server.http("/bench.json"))
        #expect(first.ownsQueue)
        #expect(!second.ownsQueue && second.underlyingQueue === session.rootQueue)
        _ = await first.serializingData().response
        _ = await second.serializingData().response
        // Both done (and gone from the session before their responses were delivered).
        #expect(session.request(Server.http("/bench.json")).ownsQueue)
    }

    /// Queues are kept for reuse up to `RequestQueues.capacity`; past as many active requests,
    /// new ones share `rootQueue` rather than have a queue made and released for each.
    @Test func withAsManyActiveRequestsAsQueuesKeptANewOneSharesRootQueue() async throws {
        let session = makeSession()
        let (active, next) = await outsideAnyTask {
            let active = (0..<RequestQueues.capacity).map { _ in session.request(Server.http("/bench.json")) }
            return (active, session.request(Server.http("/bench.json")))
        }
        #expect(active.allSatisfy { $0.ownsQueue })
        #expect(Set(active.map { ObjectIdentifier($0.underlyingQueue) }).count == RequestQueues.capacity)
        #expect(!next.ownsQueue && next.underlyingQueue === session.rootQueue)
        (active + [next]).forEach { $0.cancel() }
    }

    /// A request's queue goes back to its session when the request is gone, for the next one:
    /// making and releasing a queue per request costs a Dispatch worker's wake-up.
    @Test func aRequestsQueueIsKeptForTheNextOne() async throws {
        let session = makeSession()
        var first: DataRequest? = session.request(Server.http("/bench.json"))
        let queue = try #require(first?.underlyingQueue)
        #expect(await first?.serializingData().response.error == nil)
        first = nil
        let next = session.request(Server.http("/bench.json"))
        #expect(next.ownsQueue && next.underlyingQueue === queue)
    }

    @Test func aHookOfTheSessionOrAnInterceptorOfTheRequestKeepsItOnRootQueue() {
        let adapter = Adapter { urlRequest, _, completion in completion(.success(urlRequest)) }
        let monitored = makeSession(eventMonitors: [ClosureEventMonitor(queue: DispatchQueue(label: "test.idle-monitor"))])
        let intercepted = makeSession(interceptor: adapter)
        let redirected = makeSession(redirectHandler: Redirector.follow)
        let cached = makeSession(cachedResponseHandler: ResponseCacher.cache)
        let eager = makeSession(requestSetup: .eager)
        for session in [monitored, intercepted, redirected, cached, eager] {
            let request = session.request(Server.http("/bench.json"))
            #expect(!request.ownsQueue)
            #expect(request.underlyingQueue === session.rootQueue)
            request.cancel()
        }
        let plain = makeSession()
        let request = plain.request(Server.http("/bench.json"), interceptor: adapter)
        #expect(request.underlyingQueue === plain.rootQueue)
        // Other kinds keep rootQueue.
        #expect(plain.download(Server.http("/bench.json")).underlyingQueue === plain.rootQueue)
        #expect(plain.streamRequest(Server.http("/bench.json")).underlyingQueue === plain.rootQueue)
        #expect(plain.upload(Data("x".utf8), to: Server.http("/post")).underlyingQueue === plain.rootQueue)
        request.cancel()
    }

    @Test func aCallbackRequestMakesTwoTrips() async throws {
        let session = makeSession()
        let request = session.request(Server.http("/bench.json")).validate()
        let error = await withCheckedContinuation { continuation in
            request.responseData(queue: .global()) { continuation.resume(returning: $0.error) }
        }
        #expect(error == nil)
        // To the engine, then (the engine idle, it completes the request itself) to the handler.
        #expect(request.handOffs.value == 2)
    }

    /// What `request`'s data handler saw on a queue of its own: the response's error, whether it
    /// ran on that queue, and the request's state.
    static func handled(_ request: DataRequest) async -> (error: AFError?, onItsQueue: Bool, state: Request.State) {
        let handlerQueue = DispatchQueue(label: "test.own-queue-handler")
        let key = DispatchSpecificKey<Bool>()
        handlerQueue.setSpecific(key: key, value: true)
        return await withCheckedContinuation { continuation in
            request.responseData(queue: handlerQueue) {
                continuation.resume(returning: ($0.error, DispatchQueue.getSpecific(key: key) == true, request.state))
            }
        }
    }

    @Test func aCompletionWhileAnotherTransferRunsGoesToTheHandlersQueue() async throws {
        let session = makeSession()
        let request = session.request(Server.http("/bench.json")).validate()
        let stalled = await Self.stall(in: session)
        let (error, onItsQueue, state) = await Self.handled(request)
        stalled.cancel()
        #expect(error == nil)
        #expect(onItsQueue, "the handler ran on its queue")
        #expect(state == .finished)
        // To the engine, then to the handler's queue, which completes the request and calls the
        // handler with no trip between.
        #expect(request.handOffs.value == 2)
    }

    /// A request made while another is active, its end handed to its handler's queue by the busy
    /// engine: the same two trips as one alone.
    @Test func aRequestMadeWhileAnotherRunsMakesTwoTripsUnderLoad() async throws {
        let session = makeSession()
        let stalled = await Self.stall(in: session)
        let request = await outsideAnyTask { session.request(Server.http("/bench.json")).validate() }
        let (error, onItsQueue, state) = await Self.handled(request)
        stalled.cancel()
        #expect(request.ownsQueue)
        #expect(error == nil)
        #expect(onItsQueue, "the handler ran on its queue")
        #expect(state == .finished)
        #expect(request.handOffs.value == 2)
    }

    /// The engine hands a busy end to the handlers' one queue, except the main queue, which
    /// Alamofire keeps free of serialization: that end goes to `rootQueue`.
    @Test func theMainQueueIsNotWhereTheEngineHandsAnEnd() {
        #expect(DispatchQueue.main.isMain)
        #expect(!DispatchQueue(label: DispatchQueue.main.label).isMain)
        #expect(!DispatchQueue.global().isMain)
        let session = makeSession(startRequestsImmediately: false), other = makeSession(startRequestsImmediately: false)
        let onMain = session.request(Server.http("/bench.json")).response(queue: .main) { _ in }
        let elsewhere = DispatchQueue(label: "test.handler-elsewhere")
        let onItsQueue = other.request(Server.http("/bench.json")).response(queue: elsewhere) { _ in }
        #expect(onMain.ownsQueue && onItsQueue.ownsQueue)
        #expect(onMain.completionQueue === session.rootQueue)
        #expect(onItsQueue.completionQueue === elsewhere)
        onMain.cancel()
        onItsQueue.cancel()
    }

    @Test func anAwaitedRequestMakesTwoTrips() async throws {
        let session = makeSession()
        let request = session.request(Server.http("/bench.json")).validate()
        _ = try await request.serializingDecodable([String: String].self).value
        // To the engine, then the awaiting task resumed (the engine idle, it completes the request).
        #expect(request.handOffs.value == 2)
    }

    /// An awaiting task has no queue to hand the end to: with the engine busy, the request
    /// completes on its own queue, which then resumes the task.
    @Test func anAwaitedRequestEndingWhileAnotherTransferRunsMakesThreeTrips() async throws {
        let session = makeSession()
        let request = session.request(Server.http("/bench.json")).validate()
        let stalled = await Self.stall(in: session)
        let value = try? await request.serializingDecodable([String: String].self).value
        stalled.cancel()
        #expect(request.ownsQueue && value != nil)
        #expect(request.handOffs.value == 3)
    }

    /// Handlers on two queues: the request completes on its own queue, and each handler is
    /// called on its own.
    @Test func handlersOnTwoQueuesEachRunOnTheirs() async throws {
        let session = makeSession()
        let request = session.request(Server.http("/bench.json"))
        let stalled = await Self.stall(in: session)
        let first = DispatchQueue(label: "test.first-handler"), second = DispatchQueue(label: "test.second-handler")
        let key = DispatchSpecificKey<String>()
        first.setSpecific(key: key, value: "first")
        second.setSpecific(key: key, value: "second")
        let seen = await withCheckedContinuation { continuation in
            request.responseData(queue: first) { _ in
                let one = DispatchQueue.getSpecific(key: key)
                request.responseString(queue: second) { _ in continuation.resume(returning: [one, DispatchQueue.getSpecific(key: key)]) }
            }
        }
        stalled.cancel()
        #expect(seen == ["first", "second"])
    }
}
