@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Records the names of the events it gets, in order, on its own queue.
final class EventRecorder: EventMonitor, @unchecked Sendable {
    let queue = DispatchQueue(label: "test.event-recorder")
    private let events = Protected<[String]>([])
    let receivedData = Protected(Data())

    /// The events so far, once every event already sent has been delivered.
    var recorded: [String] {
        queue.sync {}
        return events.value
    }

    private func record(_ name: String) { events.withLock { $0.append(name) } }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse) { record("didReceiveResponse") }
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        receivedData.withLock { $0.append(data) }
    }
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                 newRequest request: URLRequest) { record("willPerformHTTPRedirection") }
    func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: TaskMetrics) { record("didFinishCollecting") }
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) { record("taskDidComplete") }
    func request(_ request: Request, didCreateInitialURLRequest urlRequest: URLRequest) { record("didCreateInitialURLRequest") }
    func request(_ request: Request, didFailToCreateURLRequestWithError error: AFError) { record("didFailToCreateURLRequest") }
    func request(_ request: Request, didAdaptInitialRequest initialRequest: URLRequest, to adaptedRequest: URLRequest) {
        record("didAdaptInitialRequest")
    }
    func request(_ request: Request, didFailToAdaptURLRequest initialRequest: URLRequest, withError error: AFError) {
        record("didFailToAdaptURLRequest")
    }
    func request(_ request: Request, didCreateURLRequest urlRequest: URLRequest) { record("didCreateURLRequest") }
    func request(_ request: Request, didCreateTask task: URLSessionTask) { record("didCreateTask") }
    func request(_ request: Request, didGatherMetrics metrics: TaskMetrics) { record("didGatherMetrics") }
    func request(_ request: Request, didCompleteTask task: URLSessionTask, with error: AFError?) { record("didCompleteTask") }
    func requestIsRetrying(_ request: Request) { record("requestIsRetrying") }
    func requestDidFinish(_ request: Request) { record("requestDidFinish") }
    func requestDidResume(_ request: Request) { record("requestDidResume") }
    func request(_ request: Request, didResumeTask task: URLSessionTask) { record("didResumeTask") }
    func requestDidSuspend(_ request: Request) { record("requestDidSuspend") }
    func request(_ request: Request, didSuspendTask task: URLSessionTask) { record("didSuspendTask") }
    func requestDidCancel(_ request: Request) { record("requestDidCancel") }
    func request(_ request: Request, didCancelTask task: URLSessionTask) { record("didCancelTask") }
    func request(_ request: DataRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                 data: Data?, withResult result: Request.ValidationResult) { record("didValidateRequest") }
    func request(_ request: DataRequest, didParseResponse response: DataResponse<Data?, AFError>) { record("didParseResponse(Data?)") }
    func request<Value>(_ request: DataRequest, didParseResponse response: DataResponse<Value, AFError>) {
        record("didParseResponse")
    }
}

@Suite(.timeLimit(.minutes(1))) struct EventMonitorTests {
    @Test func aSuccessfulRequestEmitsItsLifecycleInOrder() async throws {
        let recorder = EventRecorder()
        let session = makeSession(eventMonitors: [recorder])
        let data = try await session.request(Server.httpbin("/get")).validate().serializingData().value
        #expect(recorder.recorded == [
            "requestDidResume", "didCreateInitialURLRequest", "didCreateURLRequest", "didCreateTask", "didResumeTask",
            "didReceiveResponse", "didFinishCollecting", "taskDidComplete", "didGatherMetrics",
            "didValidateRequest", "didValidateRequest",  // validate() is status code, then content type
            "didCompleteTask", "requestDidFinish", "didParseResponse",
        ])
        #expect(recorder.receivedData.value == data)
    }

    @Test func validateStopsAtTheStatusCodeWhenItFails() async throws {
        let recorder = EventRecorder()
        let session = makeSession(eventMonitors: [recorder])
        // A 406 with a JSON body the request does not accept: only the status check runs (the
        // content-type check would fail too, with another error and a second event).
        let request = session.request(Server.httpbin("/status/406"), headers: ["Accept": "image/png"]).validate()
        let error = await request.serializingData().response.error
        #expect(error?.responseCode == 406)
        #expect(recorder.recorded.filter { $0 == "didValidateRequest" }.count == 1)
    }

    @Test func adaptationRetriesAndRedirectsAreReported() async throws {
        let recorder = EventRecorder()
        let adapter = Adapter { request, _, completion in completion(.success(request)) }
        let retrier = Retrier { request, _, _, completion in completion(request.retryCount == 0 ? .retry : .doNotRetry) }
        let session = makeSession(interceptor: Interceptor(adapter: adapter, retrier: retrier), eventMonitors: [recorder])
        _ = await session.request(Server.httpbin("/redirect/1")).validate(statusCode: [201]).serializingData().response
        let events = recorder.recorded
        #expect(events.filter { $0 == "didAdaptInitialRequest" }.count == 2)
        #expect(events.filter { $0 == "willPerformHTTPRedirection" }.count == 2)
        #expect(events.filter { $0 == "requestIsRetrying" }.count == 1)
        #expect(events.filter { $0 == "requestDidFinish" }.count == 1)
    }

    @Test func adaptationFailureIsReported() async {
        let recorder = EventRecorder()
        struct NoToken: Error {}
        let session = makeSession(interceptor: Adapter { _, _, completion in completion(.failure(NoToken())) },
                                  eventMonitors: [recorder])
        _ = await session.request(Server.httpbin("/get")).serializingData().response
        #expect(recorder.recorded.contains("didFailToAdaptURLRequest"))
        #expect(!recorder.recorded.contains("didCreateTask"))
    }

    @Test func suspendResumeAndCancelAreReported() async {
        let recorder = EventRecorder()
        let session = makeSession(eventMonitors: [recorder])
        let request = session.request(Server.faults("/stall"))
        let task = request.serializingData()
        _ = await response { done in request.onURLSessionTaskCreation(on: .main) { done($0) } }
        request.suspend()
        request.resume()
        request.cancel()
        _ = await task.response
        let events = recorder.recorded
        for name in ["requestDidSuspend", "didSuspendTask", "requestDidCancel", "didCancelTask"] {
            #expect(events.contains(name), "missing \(name)")
        }
        #expect(events.filter { $0 == "requestDidResume" }.count == 2)
    }

    @Test func aRequestSuspendedBeforeItHasATaskReportsEachSuspensionOnce() async {
        let recorder = EventRecorder()
        let session = makeSession(startRequestsImmediately: false, requestSetup: .eager, eventMonitors: [recorder])
        let request = session.request(Server.http("/bench.json"))
        for _ in 0..<100 { request.suspend() }
        _ = await response { done in request.onURLSessionTaskCreation(on: .global()) { done($0) } }
        // The task is made on the request's queue, its events go through the session's monitor
        // queue: behind both, every event of the task's creation was delivered.
        await response { done in request.underlyingQueue.async { done(()) } }
        await response { done in session.eventMonitor.queue.async { done(()) } }
        let events = recorder.recorded
        #expect(events.filter { $0 == "requestDidSuspend" }.count == 1)
        #expect(events.filter { $0 == "didSuspendTask" }.count == 1, "\(events)")
        #expect(!events.contains("requestDidResume") && request.state == .suspended)
        request.cancel()
    }

    @Test func aSlowMonitorDoesNotSlowTheRequest() async throws {
        // The monitor's queue stays blocked until the response arrived: delivery must not wait.
        let blocked = ClosureEventMonitor(queue: DispatchQueue(label: "test.blocked-monitor"))
        let release = DispatchSemaphore(value: 0)
        blocked.queue.async { release.wait() }
        let finished = Protected(false)
        blocked.requestDidFinish = { _ in finished.withLock { $0 = true } }
        let session = makeSession(eventMonitors: [blocked])
        _ = try await session.request(Server.httpbin("/get")).serializingData().value
        #expect(!finished.value)
        release.signal()
        blocked.queue.sync {}
        #expect(finished.value)
    }

    @Test func requestMonitorsGetRequestEventsOnly() async throws {
        let recorder = EventRecorder()
        let session = makeSession(eventMonitors: [])
        _ = try await session.request(Server.httpbin("/get")).eventMonitor(recorder).serializingData().value
        let events = recorder.recorded
        #expect(events.contains("requestDidFinish"))
        #expect(!events.contains("taskDidComplete"))
    }

    @Test func closureMonitorReceivesData() async throws {
        let monitor = ClosureEventMonitor(queue: DispatchQueue(label: "test.closure-monitor"))
        let received = Protected(Data())
        monitor.dataTaskDidReceiveData = { _, _, data in received.withLock { $0.append(data) } }
        let session = makeSession(eventMonitors: [monitor])
        let data = try await session.request(Server.httpbin("/bytes/50000")).serializingData().value
        monitor.queue.sync {}
        #expect(received.value == data)
    }

    /// A closure monitor with only the byte-count closure set still hears a data request's body
    /// going out (a data request keeps no progress of its own unless someone asks).
    @Test func closureMonitorHearsADataRequestsBodyGoOut() async throws {
        let monitor = ClosureEventMonitor(queue: DispatchQueue(label: "test.closure-monitor.sent"))
        let sent = Protected<[Int64]>([])
        monitor.taskDidSendBodyData = { _, _, _, total, _ in sent.withLock { $0.append(total) } }
        let session = makeSession(eventMonitors: [monitor])
        let body = Data(repeating: 1, count: 200_000)
        _ = try await session.request(Server.faults("/sink"), method: .post) { $0.httpBody = body }
            .validate().serializingData().value
        monitor.queue.sync {}
        #expect(sent.value.last == Int64(body.count))
    }

    @Test func notificationsArePosted() async throws {
        let session = makeSession()
        let request = session.request(Server.httpbin("/get"))
        var observers: [any NSObjectProtocol] = []
        let names: [Notification.Name] = [Request.didResumeNotification, Request.didResumeTaskNotification,
                                          Request.didCompleteTaskNotification, Request.didFinishNotification]
        let seen: [Notification.Name] = await withCheckedContinuation { continuation in
            let collected = Protected<[Notification.Name]>([])
            for name in names {
                let observer = NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { note in
                    guard note.request == request else { return }
                    let all = collected.withLock { $0.append(note.name); return $0 }
                    if note.name == Request.didFinishNotification { continuation.resume(returning: all) }
                }
                observers.append(observer)
            }
            request.resume()
        }
        observers.forEach { NotificationCenter.default.removeObserver($0) }
        #expect(seen == names)
        #expect(request.mutableState.value.urlSessionTasks.isEmpty, "posting the task notifications made no task object")
    }

    @Test func aTaskObjectIsMadeOnlyWhenAskedForAndOnlyOnce() async throws {
        let session = makeSession()
        let request = session.request(Server.http("/bench.json"))
        _ = try await request.validate().serializingData().value
        _ = await response { done in request.responseData(queue: .global()) { done($0.result) } }
        #expect(request.mutableState.value.urlSessionTasks.isEmpty, "the idiomatic paths never need one")
        let task = try #require(request.task)
        #expect(request.task === task && request.tasks.count == 1 && request.mutableState.value.urlSessionTasks.count == 1)
    }
}
