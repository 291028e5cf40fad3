@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// What Alamofire's API promises about order and state, held under concurrency: each request's
/// monitor events and notifications in Alamofire's order, each handler on its queue seeing its
/// request finished, and a cancel racing the completion ending the request exactly one way.
/// Any shortcut on the request path must keep these.
@Suite(.timeLimit(.minutes(1))) struct OrderingGuaranteeTests {
    static let concurrency = 64

    /// Records, per request, the monitor events (on its own queue) and the four notifications
    /// Alamofire always posts (on the posting thread).
    final class PerRequestRecorder: EventMonitor, @unchecked Sendable {
        let queue = DispatchQueue(label: "test.per-request-recorder")
        private let events = Protected<[UUID: [String]]>([:])
        private let notifications = Protected<[UUID: [String]]>([:])
        private var observers: [any NSObjectProtocol] = []

        init() {
            let names: [(Notification.Name, String)] = [
                (Request.didResumeNotification, "didResume"), (Request.didResumeTaskNotification, "didResumeTask"),
                (Request.didCompleteTaskNotification, "didCompleteTask"), (Request.didFinishNotification, "didFinish"),
            ]
            for (name, label) in names {
                observers.append(NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { [notifications] note in
                    guard let request = note.request else { return }
                    notifications.withLock { $0[request.id, default: []].append(label) }
                })
            }
        }

        func stopObserving() { observers.forEach { NotificationCenter.default.removeObserver($0) } }

        func events(of request: Request) -> [String] {
            queue.sync {}
            return events.value[request.id] ?? []
        }

        func notifications(of request: Request) -> [String] { notifications.value[request.id] ?? [] }

        private func record(_ request: Request, _ name: String) { events.withLock { $0[request.id, default: []].append(name) } }

        func requestDidResume(_ request: Request) { record(request, "requestDidResume") }
        func request(_ request: Request, didCreateInitialURLRequest urlRequest: URLRequest) { record(request, "didCreateInitialURLRequest") }
        func request(_ request: Request, didCreateURLRequest urlRequest: URLRequest) { record(request, "didCreateURLRequest") }
        func request(_ request: Request, didCreateTask task: URLSessionTask) { record(request, "didCreateTask") }
        func request(_ request: Request, didResumeTask task: URLSessionTask) { record(request, "didResumeTask") }
        func request(_ request: Request, didGatherMetrics metrics: TaskMetrics) { record(request, "didGatherMetrics") }
        func request(_ request: DataRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                     data: Data?, withResult result: Request.ValidationResult) { record(request, "didValidateRequest") }
        func request(_ request: Request, didCompleteTask task: URLSessionTask, with error: AFError?) { record(request, "didCompleteTask") }
        func requestDidCancel(_ request: Request) { record(request, "requestDidCancel") }
        func requestDidFinish(_ request: Request) { record(request, "requestDidFinish") }
        func request<Value>(_ request: DataRequest, didParseResponse response: DataResponse<Value, AFError>) {
            record(request, "didParseResponse")
        }
    }

    /// Where the requests of a test run.
    enum Placement: CaseIterable, Sendable {
        /// All of one session whose monitor is the recorder: on `rootQueue`.
        case rootQueue
        /// Each of a session of its own without hooks, on a queue of its own.
        case sessionEach
        /// All of one session without hooks, made outside any Swift task: each on a queue of its
        /// own, while the others are active.
        case sharedSession
    }

    /// `count` requests made at once, placed as `placement` says; off `rootQueue` the recorder is
    /// each request's monitor. All keep Alamofire's order. The sessions are returned to be kept.
    static func requests(recordedBy recorder: PerRequestRecorder, placement: Placement,
                         count: Int = concurrency) async -> (sessions: [Session], requests: [DataRequest]) {
        switch placement {
        case .rootQueue:
            let session = makeSession(eventMonitors: [recorder])
            return ([session], (0..<count).map { _ in session.request(Server.http("/bench.json")) })
        case .sessionEach:
            let sessions = (0..<count).map { _ in makeSession() }
            return (sessions, sessions.map { $0.request(Server.http("/bench.json")).eventMonitor(recorder) })
        case .sharedSession:
            let session = makeSession()
            // Made on a Dispatch worker: a request made inside a task while others are active
            // shares `rootQueue`.
            let requests = await outsideAnyTask {
                (0..<count).map { _ in session.request(Server.http("/bench.json")).eventMonitor(recorder) }
            }
            return ([session], requests)
        }
    }

    @Test(arguments: Placement.allCases)
    func underConcurrencyEachRequestHearsItsEventsAndNotificationsInAlamofiresOrder(placement: Placement) async throws {
        let recorder = PerRequestRecorder()
        defer { recorder.stopObserving() }
        let (sessions, made) = await Self.requests(recordedBy: recorder, placement: placement)
        defer { withExtendedLifetime(sessions) {} }
        let requests = made.map { $0.validate() }
        #expect(requests.allSatisfy { $0.ownsQueue == (placement != .rootQueue) })
        await withTaskGroup(of: Void.self) { group in
            for request in requests {
                group.addTask { _ = await request.serializingData().response }
            }
        }
        for request in requests {
            #expect(recorder.events(of: request) == [
                "requestDidResume", "didCreateInitialURLRequest", "didCreateURLRequest", "didCreateTask", "didResumeTask",
                "didGatherMetrics", "didValidateRequest", "didValidateRequest", "didCompleteTask", "requestDidFinish",
                "didParseResponse",
            ])
            #expect(recorder.notifications(of: request) == ["didResume", "didResumeTask", "didCompleteTask", "didFinish"])
        }
    }

    /// With `.rootQueue`, one session's requests made inside tasks (the first on a queue of its
    /// own, the others on `rootQueue`); with `.sessionEach`, each of its own session; with
    /// `.sharedSession`, one session's requests made outside any task (each on a queue of its own).
    @Test(arguments: Placement.allCases)
    func eachHandlerRunsOnItsQueueAndSeesItsRequestFinished(placement: Placement) async throws {
        let sessions = (0..<(placement == .sessionEach ? Self.concurrency : 1)).map { _ in makeSession() }
        let premade: [DataRequest]? = placement != .sharedSession ? nil : await outsideAnyTask {
            (0..<Self.concurrency).map { _ in sessions[0].request(Server.http("/bench.json")) }
        }
        if let premade { #expect(premade.allSatisfy { $0.ownsQueue }) }
        let key = DispatchSpecificKey<Int>()
        let outcomes = await withTaskGroup(of: (expected: Int, seen: Int?, state: Request.State, value: Bool).self) { group in
            for index in 0..<Self.concurrency {
                let queue = DispatchQueue(label: "test.handler-\(index)")
                queue.setSpecific(key: key, value: index)
                let session = sessions[index % sessions.count]
                group.addTask {
                    let request = (premade?[index] ?? session.request(Server.http("/bench.json"))).validate()
                    return await withCheckedContinuation { continuation in
                        request.responseData(queue: queue) { response in
                            continuation.resume(returning: (index, DispatchQueue.getSpecific(key: key), request.state, response.value != nil))
                        }
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.count == Self.concurrency)
        for outcome in outcomes {
            #expect(outcome.seen == outcome.expected, "the handler ran on its own queue")
            #expect(outcome.state == .finished)
            #expect(outcome.value)
        }
    }

    /// A cancel sent from another thread as the request starts, racing its exchange and its
    /// completion: the handler runs once, and the request ended one way, consistently.
    @Test(arguments: Placement.allCases)
    func aCancelRacingTheCompletionEndsTheRequestOneWay(placement: Placement) async throws {
        let recorder = PerRequestRecorder()
        defer { recorder.stopObserving() }
        let (sessions, requests) = await Self.requests(recordedBy: recorder, placement: placement)
        defer { withExtendedLifetime(sessions) {} }
        #expect(requests.allSatisfy { $0.ownsQueue == (placement != .rootQueue) })
        let calls = Protected<[UUID: Int]>([:])
        let results = await withTaskGroup(of: (Request, AFDataResponse<Data>).self) { group in
            for request in requests {
                group.addTask {
                    let response = await withCheckedContinuation { continuation in
                        request.responseData(queue: DispatchQueue(label: "test.racing-handler")) { response in
                            calls.withLock { $0[request.id, default: 0] += 1 }
                            continuation.resume(returning: response)
                        }
                        DispatchQueue.global().async { request.cancel() }
                    }
                    return (request, response)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        for (request, response) in results {
            #expect(calls.value[request.id] == 1, "the handler ran once")
            let events = recorder.events(of: request)
            switch request.state {
            case .cancelled:
                // Cancelled before the serializer ran: it reports the cancel; after: its value.
                #expect(response.error == nil || response.error?.isExplicitlyCancelledError == true)
                #expect(events.filter { $0 == "requestDidCancel" }.count == 1)
            case .finished:
                #expect(response.value != nil && response.error == nil)
                #expect(!events.contains("requestDidCancel"))
            default:
                Issue.record("a request that ended is \(request.state)")
            }
            if response.error?.isExplicitlyCancelledError == true { #expect(request.state == .cancelled) }
            // As in Alamofire, a cancel that lands while the serializers run is reported after them.
            #expect(events.filter { $0 == "requestDidFinish" }.count == 1)
            #expect(events.filter { $0 == "didParseResponse" }.count == 1)
            #expect(recorder.notifications(of: request).last == "didFinish")
        }
    }
}
