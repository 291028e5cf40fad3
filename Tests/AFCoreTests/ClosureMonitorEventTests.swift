@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A `ClosureEventMonitor` hears an event only through the closure for it, asked as the event is
/// delivered: without that closure the event's arguments (a task object, an `HTTPURLResponse`)
/// are never made; with it, or in a subclass that overrides the method, the event arrives.
@Suite(.timeLimit(.minutes(1))) struct ClosureMonitorEventTests {
    /// Counts the calls of the closures it was given, by name.
    final class Calls: Sendable {
        private let counts = Protected<[String: Int]>([:])
        func record(_ name: String) { counts.withLock { $0[name, default: 0] += 1 } }
        subscript(name: String) -> Int { counts.withLock { $0[name] ?? 0 } }
    }

    /// A monitor with only `requestDidFinish` set, and the signal that closure fires.
    static func finishOnlyMonitor(_ label: String) -> (ClosureEventMonitor, OneShot) {
        let monitor = ClosureEventMonitor(queue: DispatchQueue(label: label))
        let finished = OneShot()
        monitor.requestDidFinish = { _ in finished.fire() }
        return (monitor, finished)
    }

    @Test func aMonitorWithoutThoseClosuresMakesNoTaskObjectAndNoResponse() async throws {
        let (monitor, finished) = Self.finishOnlyMonitor("test.closure-monitor.finish-only")
        let session = makeSession(eventMonitors: [monitor])
        let request = session.request(Server.http("/bench.json"))
        _ = try await request.validate().serializingData().value
        await finished.wait()
        monitor.queue.sync {}
        #expect(request.mutableState.value.urlSessionTasks.isEmpty, "no event the monitor hears needed a task object")
        #expect(request.receivedResponse?.isBuilt == false, "no event the monitor hears needed an HTTPURLResponse")
    }

    @Test func aDownloadWithSuchAMonitorMakesNoTaskObject() async throws {
        let (monitor, finished) = Self.finishOnlyMonitor("test.closure-monitor.download")
        let session = makeSession(eventMonitors: [monitor])
        let download = session.download(Server.http("/bench.json"))
        let response = await download.serializingDownloadedFileURL().response
        await finished.wait()
        monitor.queue.sync {}
        if let url = response.value { try? FileManager.default.removeItem(at: url) }
        #expect(response.error == nil)
        #expect(download.mutableState.value.urlSessionTasks.isEmpty)
    }

    /// Each kind of event is judged by its own closure, and by no other; an event no closure
    /// hears is heard by none.
    @Test func eachEventIsJudgedByItsOwnClosure() {
        let setters: [MonitoredEvent: (ClosureEventMonitor) -> Void] = [
            .sessionDidBecomeInvalidWithError: { $0.sessionDidBecomeInvalidWithError = { _, _ in } },
            .taskDidReceiveChallenge: { $0.taskDidReceiveChallenge = { _, _, _ in } },
            .taskDidSendBodyData: { $0.taskDidSendBodyData = { _, _, _, _, _ in } },
            .taskNeedNewBodyStream: { $0.taskNeedNewBodyStream = { _, _ in } },
            .taskWillPerformHTTPRedirection: { $0.taskWillPerformHTTPRedirection = { _, _, _, _ in } },
            .taskDidFinishCollectingMetrics: { $0.taskDidFinishCollectingMetrics = { _, _, _ in } },
            .taskDidComplete: { $0.taskDidComplete = { _, _, _ in } },
            .taskIsWaitingForConnectivity: { $0.taskIsWaitingForConnectivity = { _, _ in } },
            .dataTaskDidReceiveResponse: { $0.dataTaskDidReceiveResponse = { _, _, _ in } },
            .dataTaskDidReceiveData: { $0.dataTaskDidReceiveData = { _, _, _ in } },
            .dataTaskWillCacheResponse: { $0.dataTaskWillCacheResponse = { _, _, _ in } },
            .downloadTaskDidFinishDownloadingToURL: { $0.downloadTaskDidFinishDownloadingToURL = { _, _, _ in } },
            .downloadTaskDidWriteData: { $0.downloadTaskDidWriteData = { _, _, _, _, _ in } },
            .downloadTaskDidResumeAtOffset: { $0.downloadTaskDidResumeAtOffset = { _, _, _, _ in } },
            .requestDidCreateInitialURLRequest: { $0.requestDidCreateInitialURLRequest = { _, _ in } },
            .requestDidFailToCreateURLRequestWithError: { $0.requestDidFailToCreateURLRequestWithError = { _, _ in } },
            .requestDidAdaptInitialRequestToAdaptedRequest: {
                $0.requestDidAdaptInitialRequestToAdaptedRequest = { _, _, _ in }
            },
            .requestDidFailToAdaptURLRequestWithError: { $0.requestDidFailToAdaptURLRequestWithError = { _, _, _ in } },
            .requestDidCreateURLRequest: { $0.requestDidCreateURLRequest = { _, _ in } },
            .requestDidCreateTask: { $0.requestDidCreateTask = { _, _ in } },
            .requestDidGatherMetrics: { $0.requestDidGatherMetrics = { _, _ in } },
            .requestDidFailTaskEarlyWithError: { $0.requestDidFailTaskEarlyWithError = { _, _, _ in } },
            .requestDidCompleteTaskWithError: { $0.requestDidCompleteTaskWithError = { _, _, _ in } },
            .requestIsRetrying: { $0.requestIsRetrying = { _ in } },
            .requestDidFinish: { $0.requestDidFinish = { _ in } },
            .requestDidResume: { $0.requestDidResume = { _ in } },
            .requestDidResumeTask: { $0.requestDidResumeTask = { _, _ in } },
            .requestDidSuspend: { $0.requestDidSuspend = { _ in } },
            .requestDidSuspendTask: { $0.requestDidSuspendTask = { _, _ in } },
            .requestDidCancel: { $0.requestDidCancel = { _ in } },
            .requestDidCancelTask: { $0.requestDidCancelTask = { _, _ in } },
            .requestDidValidateRequestResponseDataWithResult: {
                $0.requestDidValidateRequestResponseDataWithResult = { _, _, _, _, _ in }
            },
            .requestDidParseResponse: { $0.requestDidParseResponse = { _, _ in } },
            .requestDidValidateRequestResponseWithResult: {
                $0.requestDidValidateRequestResponseWithResult = { _, _, _, _ in }
            },
            .requestDidCreateUploadable: { $0.requestDidCreateUploadable = { _, _ in } },
            .requestDidFailToCreateUploadableWithError: { $0.requestDidFailToCreateUploadableWithError = { _, _ in } },
            .requestDidProvideInputStream: { $0.requestDidProvideInputStream = { _, _ in } },
            .requestDidFinishDownloadingUsingTaskWithResult: {
                $0.requestDidFinishDownloadingUsingTaskWithResult = { _, _, _ in }
            },
            .requestDidCreateDestinationURL: { $0.requestDidCreateDestinationURL = { _, _ in } },
            .requestDidValidateRequestResponseFileURLWithResult: {
                $0.requestDidValidateRequestResponseFileURLWithResult = { _, _, _, _, _ in }
            },
            .requestDidParseDownloadResponse: { $0.requestDidParseDownloadResponse = { _, _ in } },
        ]
        #expect(Set(setters.keys).union([.withoutClosure]) == Set(MonitoredEvent.allCases))
        #expect(MonitoredEvent.allCases.count <= UInt64.bitWidth, "one bit each")
        let everything = ClosureEventMonitor()
        for (event, set) in setters {
            let monitor = ClosureEventMonitor()
            set(monitor)
            set(everything)
            let heard = MonitoredEvent.allCases.filter { monitor.hasClosure(for: $0) }
            #expect(heard == [event], "with only the closure for \(event) set")
        }
        #expect(!everything.hasClosure(for: .withoutClosure))
    }

    @Test func aRequestsOwnMonitorWithoutThemMakesNoneEither() async throws {
        let (monitor, finished) = Self.finishOnlyMonitor("test.closure-monitor.own")
        let session = makeSession()
        let request = session.request(Server.http("/bench.json")).eventMonitor(monitor)
        _ = try await request.validate().serializingData().value
        await finished.wait()
        monitor.queue.sync {}
        #expect(request.mutableState.value.urlSessionTasks.isEmpty)
        #expect(request.receivedResponse?.isBuilt == false)
    }

    @Test func eachOfThoseClosuresIsCalledWhenSet() async throws {
        let monitor = ClosureEventMonitor(queue: DispatchQueue(label: "test.closure-monitor.all"))
        let calls = Calls()
        let finished = OneShot()
        monitor.requestDidCreateTask = { _, _ in calls.record("createTask") }
        monitor.requestDidResumeTask = { _, _ in calls.record("resumeTask") }
        monitor.requestDidCompleteTaskWithError = { _, _, _ in calls.record("completeTask") }
        monitor.requestDidValidateRequestResponseDataWithResult = { _, _, response, _, _ in
            calls.record("validate \(response.statusCode)")
        }
        monitor.taskDidFinishCollectingMetrics = { _, _, _ in calls.record("metrics") }
        monitor.taskDidComplete = { _, _, _ in calls.record("taskComplete") }
        monitor.requestDidFinish = { _ in finished.fire() }
        let session = makeSession(eventMonitors: [monitor])
        _ = try await session.request(Server.http("/bench.json")).validate().serializingData().value
        await finished.wait()
        monitor.queue.sync {}
        for name in ["createTask", "resumeTask", "completeTask", "metrics", "taskComplete"] {
            #expect(calls[name] == 1, "\(name)")
        }
        #expect(calls["validate 200"] == 2, "validate() checks the status code, then the content type")
    }

    @Test func suspendCancelAndADownloadsEndAreHeardWhenSet() async throws {
        let monitor = ClosureEventMonitor(queue: DispatchQueue(label: "test.closure-monitor.states"))
        let calls = Calls()
        monitor.requestDidSuspendTask = { _, _ in calls.record("suspendTask") }
        monitor.requestDidCancelTask = { _, _ in calls.record("cancelTask") }
        monitor.requestDidFinishDownloadingUsingTaskWithResult = { _, _, _ in calls.record("downloadEnd") }
        let session = makeSession(eventMonitors: [monitor])
        // A server that never answers: only the cancel ends the request, however late the
        // creation handler runs on a busy machine.
        let held = session.request(Server.faults("/stall"))
        let created = OneShot()
        held.onURLSessionTaskCreation(on: .global()) { _ in created.fire() }
        held.resume()
        await created.wait()
        held.suspend()
        held.cancel()
        _ = await held.serializingData().response
        _ = await session.download(Server.http("/bench.json")).serializingDownloadedFileURL().response
        monitor.queue.sync {}
        #expect(calls["suspendTask"] == 1)
        #expect(calls["cancelTask"] == 1)
        #expect(calls["downloadEnd"] == 1)
    }

    /// A monitor with only `requestDidFinish` set, whose closure also signals `semaphore`.
    static func witness(_ label: String, signalling semaphore: DispatchSemaphore) -> (ClosureEventMonitor, OneShot) {
        let (monitor, finished) = finishOnlyMonitor(label)
        monitor.requestDidFinish = { _ in
            semaphore.signal()
            finished.fire()
        }
        return (monitor, finished)
    }

    /// A closure set by another of the monitor's closures hears the events that come after the
    /// one it was set in, even those that happened before it was set: they wait for the monitor,
    /// as in Alamofire.
    @Test func aClosureSetInAnotherClosureHearsTheEventsAfterIt() async throws {
        let monitor = ClosureEventMonitor(queue: DispatchQueue(label: "test.closure-monitor.set-in-closure"))
        let finishHappened = DispatchSemaphore(value: 0)
        let (witness, witnessed) = Self.witness("test.closure-monitor.witness", signalling: finishHappened)
        let calls = Calls()
        monitor.requestDidResume = { [weak monitor] _ in
            // Holds the monitor's queue until the request's end has happened, then listens for it.
            if finishHappened.wait(timeout: .now() + 30) == .timedOut { calls.record("timed out") }
            monitor?.requestDidFinish = { _ in calls.record("finish") }
        }
        let session = makeSession(eventMonitors: [monitor, witness])
        _ = await session.request(Server.http("/bench.json")).serializingData().response
        // The end is sent to `monitor` before `witness`, so it is on the monitor's queue by now.
        await witnessed.wait()
        monitor.queue.sync {}
        #expect(calls["timed out"] == 0)
        #expect(calls["finish"] == 1)
    }

    /// An event is judged by the closures the monitor has when the event is delivered, as in
    /// Alamofire: a closure set after the event happened, before the monitor's queue ran, hears
    /// it (a monitor on the main queue, set up by the main thread after it started a request).
    @Test func aClosureSetBeforeTheEventIsDeliveredHearsIt() async throws {
        let queue = DispatchQueue(label: "test.closure-monitor.late-closure")
        let monitor = ClosureEventMonitor(queue: queue)
        let (witness, witnessed) = Self.finishOnlyMonitor("test.closure-monitor.late-closure-witness")
        let session = makeSession(eventMonitors: [monitor, witness])
        let calls = Calls()
        queue.suspend()
        var suspended = true
        defer { if suspended { queue.resume() } }
        _ = await session.request(Server.http("/bench.json")).serializingData().response
        await witnessed.wait()
        monitor.requestDidFinish = { _ in calls.record("finish") }
        queue.resume()
        suspended = false
        queue.sync {}
        #expect(calls["finish"] == 1)
    }

    /// Each event of an adapted, validated data request reaches a monitor that has that event's
    /// closure and no other: an event named by another closure would be skipped at delivery.
    @Test func eachEventOfADataRequestReachesAMonitorWithOnlyItsClosure() async throws {
        let setters: [String: (ClosureEventMonitor, Calls) -> Void] = [
            "createInitial": { monitor, calls in monitor.requestDidCreateInitialURLRequest = { _, _ in calls.record("createInitial") } },
            "adapt": { monitor, calls in monitor.requestDidAdaptInitialRequestToAdaptedRequest = { _, _, _ in calls.record("adapt") } },
            "createURLRequest": { monitor, calls in monitor.requestDidCreateURLRequest = { _, _ in calls.record("createURLRequest") } },
            "createTask": { monitor, calls in monitor.requestDidCreateTask = { _, _ in calls.record("createTask") } },
            "resume": { monitor, calls in monitor.requestDidResume = { _ in calls.record("resume") } },
            "resumeTask": { monitor, calls in monitor.requestDidResumeTask = { _, _ in calls.record("resumeTask") } },
            "head": { monitor, calls in monitor.dataTaskDidReceiveResponse = { _, _, _ in calls.record("head") } },
            "data": { monitor, calls in monitor.dataTaskDidReceiveData = { _, _, _ in calls.record("data") } },
            "taskMetrics": { monitor, calls in monitor.taskDidFinishCollectingMetrics = { _, _, _ in calls.record("taskMetrics") } },
            "taskComplete": { monitor, calls in monitor.taskDidComplete = { _, _, _ in calls.record("taskComplete") } },
            "metrics": { monitor, calls in monitor.requestDidGatherMetrics = { _, _ in calls.record("metrics") } },
            "completeTask": { monitor, calls in monitor.requestDidCompleteTaskWithError = { _, _, _ in calls.record("completeTask") } },
            "validate": { monitor, calls in
                monitor.requestDidValidateRequestResponseDataWithResult = { _, _, _, _, _ in calls.record("validate") }
            },
            "parse": { monitor, calls in monitor.requestDidParseResponse = { _, _ in calls.record("parse") } },
            "finish": { monitor, calls in monitor.requestDidFinish = { _ in calls.record("finish") } },
        ]
        for (name, set) in setters.sorted(by: { $0.key < $1.key }) {
            let monitor = ClosureEventMonitor(queue: DispatchQueue(label: "test.closure-monitor.\(name)"))
            let calls = Calls()
            set(monitor, calls)
            let (witness, finished) = Self.finishOnlyMonitor("test.closure-monitor.\(name)-witness")
            let adapter = Adapter { urlRequest, _, completion in completion(.success(urlRequest)) }
            let session = makeSession(interceptor: adapter, eventMonitors: [monitor, witness])
            let answered = OneShot()
            session.request(Server.http("/bench.json")).validate().response(queue: .global()) { _ in answered.fire() }
            await answered.wait()
            // Each event reached `monitor`'s mailbox before `witness`'s: all are queued by now.
            await finished.wait()
            monitor.queue.sync {}
            #expect(calls[name] >= 1, "\(name)")
        }
    }

    @Test func aSubclassGetsEveryEvent() async throws {
        final class Subclass: ClosureEventMonitor, @unchecked Sendable {
            let created = OneShot()
            let received = Protected(Data())
            override func request(_ request: Request, didCreateTask task: URLSessionTask) { created.fire() }
            override func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
                received.withLock { $0.append(data) }
            }
        }
        let monitor = Subclass(queue: DispatchQueue(label: "test.closure-monitor.subclass"))
        let session = makeSession(eventMonitors: [monitor])
        let body = try await session.request(Server.http("/bench.json")).serializingData().value
        monitor.queue.sync {}
        #expect(monitor.created.hasFired, "an overriding subclass is not judged by its closures")
        #expect(monitor.received.value == body, "nor are the transfer's events")
    }
}
