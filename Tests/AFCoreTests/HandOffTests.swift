@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The trips a request's work makes between threads when a hook of the session (here a
/// monitor) keeps every request on `rootQueue`, each one the contract requires: to `rootQueue`
/// (setup is never done on the caller's thread), to the engine, back to `rootQueue`
/// (completion, validation and serialization, which run behind it by default), then to the
/// handler's queue or the awaiting task. When no other transfer runs, the engine thread runs
/// the request's completion itself, inside the request's queue (no trip back to `rootQueue`),
/// and resumes an awaiting task once it left that queue. A new trip fails here. Requests on a
/// queue of their own: `OwnQueueHandOffTests`.
@Suite(.timeLimit(.minutes(1))) struct HandOffTests {
    /// A session whose root queue is held until `release()`, so every handler is added before
    /// the request is set up, as when all are written in one expression. Its monitor (which
    /// hears nothing) keeps its requests on `rootQueue`.
    struct HeldSession {
        let root = DispatchQueue(label: "org.alamofire.test.heldRoot")
        let session: Session

        init() {
            root.suspend()
            session = makeSession(rootQueue: root, eventMonitors: [ClosureEventMonitor(queue: DispatchQueue(label: "test.idle-monitor"))])
        }

        func release() { root.resume() }
    }

    @Test func aCallbackRequestMakesThreeTrips() async throws {
        let held = HeldSession()
        let request = held.session.request(Server.http("/bench.json")).validate()
        let error = await withCheckedContinuation { continuation in
            request.responseData(queue: .global()) { continuation.resume(returning: $0.error) }
            held.release()
        }
        #expect(error == nil)
        #expect(request.handOffs.value == 3)
    }

    @Test func aCompletionWhileAnotherTransferRunsGoesBackToRootQueue() async throws {
        let held = HeldSession()
        // Set up first, so its transfer runs (stalled by the server) when the second one ends.
        let stalled = held.session.request(Server.faults("/stall"))
        stalled.response(queue: .global()) { _ in }
        let request = held.session.request(Server.http("/bench.json")).validate()
        let error = await withCheckedContinuation { continuation in
            request.responseData(queue: .global()) { continuation.resume(returning: $0.error) }
            held.release()
        }
        stalled.cancel()
        #expect(error == nil)
        #expect(request.handOffs.value == 4)
    }

    @Test func completionsEndingTogetherEachMakeTheirOwnTrips() async throws {
        let held = HeldSession()
        // Set up first, so the engine is never idle while the others end: their completions go
        // back to rootQueue, those ending in one pass of the engine in one block.
        let stalled = held.session.request(Server.faults("/stall"))
        stalled.response(queue: .global()) { _ in }
        let requests = (0..<8).map { _ in held.session.request(Server.http("/bench.json")).validate() }
        let errors = await withTaskGroup(of: AFError?.self) { group in
            for request in requests {
                group.addTask {
                    if case let .failure(error) = await request.serializingData().result { return error }
                    return nil
                }
            }
            held.release()
            return await group.reduce(into: []) { $0.append($1) }
        }
        stalled.cancel()
        #expect(errors.count == 8 && errors.allSatisfy { $0 == nil })
        #expect(requests.map(\.handOffs.value) == Array(repeating: 4, count: 8))
    }

    @Test func anAwaitedRequestMakesThreeTrips() async throws {
        let held = HeldSession()
        let request = held.session.request(Server.http("/bench.json")).validate()
        let task = request.serializingDecodable([String: String].self)
        held.release()
        _ = try await task.value
        #expect(request.handOffs.value == 3)
    }

    @Test func aHandlerAddedLateCostsNoMoreTrips() async throws {
        let session = makeSession(eventMonitors: [ClosureEventMonitor(queue: DispatchQueue(label: "test.idle-monitor"))])
        let request = session.request(Server.http("/bench.json"))
        // The session took the request in when it was made, without a trip (a lazy session's
        // registration needs none): a handler added after rootQueue ran other work costs the
        // same three trips as one added at once.
        let registered = await withCheckedContinuation { continuation in
            session.withAllRequests { continuation.resume(returning: $0.contains(request)) }
        }
        #expect(registered)
        #expect(request.handOffs.value == 0)
        _ = try await request.serializingData().value
        #expect(request.handOffs.value == 3)
    }

    @Test func severalHandlersShareTheTripsButEachHasItsQueue() async throws {
        let held = HeldSession()
        let request = held.session.request(Server.http("/bench.json"))
        let both = await withCheckedContinuation { continuation in
            request.responseData(queue: .global()) { first in
                request.responseString(queue: .global()) { second in
                    continuation.resume(returning: first.error == nil && second.error == nil)
                }
            }
            held.release()
        }
        #expect(both)
        // The second handler, added once the request finished, runs through rootQueue again.
        #expect(request.handOffs.value == 3 + 2)
    }

    /// With hooks installed (an adapter, an event monitor), the request takes the full path:
    /// one trip more, the adapter's answer coming back to `rootQueue`; the monitor's events go
    /// to the monitor's own queue and cost the request no trip. A shortcut taken when nothing
    /// observes the trips must leave this path as it is.
    @Test func withAnAdapterAndAMonitorARequestMakesFourTrips() async throws {
        let root = DispatchQueue(label: "org.alamofire.test.heldRoot")
        root.suspend()
        let adapter = Adapter { urlRequest, _, completion in completion(.success(urlRequest)) }
        let monitor = ClosureEventMonitor(queue: DispatchQueue(label: "test.hand-off-monitor"))
        let session = makeSession(rootQueue: root, interceptor: adapter, eventMonitors: [monitor])
        let request = session.request(Server.http("/bench.json")).validate()
        let error = await withCheckedContinuation { continuation in
            request.responseData(queue: .global()) { continuation.resume(returning: $0.error) }
            root.resume()
        }
        #expect(error == nil)
        #expect(request.handOffs.value == 4)
    }
}
