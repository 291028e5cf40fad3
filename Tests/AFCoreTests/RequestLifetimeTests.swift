@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A request is freed once it has ended and nobody holds it, however it ended: its task holds
/// it only until the task reports its end, or until the request finishes without that report.
@Suite(.timeLimit(.minutes(1))) struct RequestLifetimeTests {
    final class WeakRequest: @unchecked Sendable {
        weak var request: Request?
    }

    /// Whether the request is gone once `queue` ran what it holds (work queued by that work
    /// included), within the suite's bound: the last reference may be dropped on another thread
    /// (the engine's, a task's) a moment after the response was delivered. A request still held
    /// after that is leaked. The session's queues all run behind its root queue.
    func isFreed(_ reference: WeakRequest, draining queue: DispatchQueue) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while reference.request != nil, Date() < deadline {
            queue.sync {}
            sched_yield()
        }
        return reference.request == nil
    }

    @Test func aCompletedRequestIsFreed() async {
        let root = DispatchQueue(label: "org.alamofire.test.lifetime.completed")
        let session = makeSession(rootQueue: root)
        let reference = WeakRequest()
        let error = await { () async -> AFError? in
            let request = session.request(Server.http("/bench.json"))
            reference.request = request
            return await request.serializingData().response.error
        }()
        #expect(error == nil)
        #expect(isFreed(reference, draining: root))
    }

    @Test func aRequestWhoseTaskNeverRanIsFreedWhenItsSessionIsGone() async {
        let root = DispatchQueue(label: "org.alamofire.test.lifetime.neverRan")
        var session: Session? = makeSession(rootQueue: root, startRequestsImmediately: false, requestSetup: .eager)
        let reference = WeakRequest()
        let error = await { () async -> AFError? in
            let request = session!.request(Server.http("/bench.json"))
            reference.request = request
            // The task exists (and is never resumed) before the session goes.
            _ = await withCheckedContinuation { continuation in
                request.onURLSessionTaskCreation(on: root) { continuation.resume(returning: $0) }
            }
            session = nil
            return await withCheckedContinuation { continuation in
                request.response(queue: root) { continuation.resume(returning: $0.error) }
            }
        }()
        guard case .sessionDeinitialized = error else {
            Issue.record("expected sessionDeinitialized, got \(String(describing: error))")
            return
        }
        #expect(isFreed(reference, draining: root))
    }

    @Test func aRequestRunningWhenItsSessionGoesIsFreed() async {
        let root = DispatchQueue(label: "org.alamofire.test.lifetime.running")
        var session: Session? = makeSession(rootQueue: root)
        let reference = WeakRequest()
        let error = await { () async -> AFError? in
            let request = session!.request(Server.faults("/stall"))
            reference.request = request
            let task = request.serializingData()
            _ = await withCheckedContinuation { continuation in
                request.onURLSessionTaskCreation(on: root) { continuation.resume(returning: $0) }
            }
            session = nil
            return await task.response.error
        }()
        guard case .sessionDeinitialized = error else {
            Issue.record("expected sessionDeinitialized, got \(String(describing: error))")
            return
        }
        #expect(isFreed(reference, draining: root))
    }

    enum HeldBy: CaseIterable, Sendable { case responseHandler, urlRequestHandler, taskHandler, cURLHandler }

    /// A handler added before the request runs, or once it is done (`addedOnceDone`).
    @Test(arguments: HeldBy.allCases, [false, true])
    func aRequestItsOwnHandlerHoldsIsFreedOnceDone(heldBy: HeldBy, addedOnceDone: Bool) async {
        let root = DispatchQueue(label: "org.alamofire.test.lifetime.handler")
        let session = makeSession(rootQueue: root)
        let reference = WeakRequest()
        let error = await { () async -> AFError? in
            let request = session.request(Server.http("/bench.json"))
            reference.request = request
            if !addedOnceDone { Self.add(heldBy, holding: request, on: root) }
            let error = await request.serializingData().response.error
            if addedOnceDone { Self.add(heldBy, holding: request, on: root) }
            return error
        }()
        #expect(error == nil)
        #expect(isFreed(reference, draining: root))
    }

    /// Adds a handler of `kind` that holds `request` (to cancel it, say): a cycle while kept.
    static func add(_ kind: HeldBy, holding request: DataRequest, on queue: DispatchQueue) {
        switch kind {
        case .responseHandler:
            request.onHTTPResponse(on: queue) { _, completionHandler in
                withExtendedLifetime(request) { completionHandler(.allow) }
            }
        case .urlRequestHandler: request.onURLRequestCreation(on: queue) { _ in withExtendedLifetime(request) {} }
        case .taskHandler: request.onURLSessionTaskCreation(on: queue) { _ in withExtendedLifetime(request) {} }
        case .cURLHandler: request.cURLDescription(on: queue) { _ in withExtendedLifetime(request) {} }
        }
    }
}
