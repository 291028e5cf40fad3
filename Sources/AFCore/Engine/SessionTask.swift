import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Receives a task's events: those marked "engine thread" as they happen (they must return
/// fast), the others on the queue the task was given.
protocol SessionTaskDelegate: AnyObject, Sendable {
    /// Whether heads and body chunks should be reported as they arrive; asked per exchange.
    var observesTransferEvents: Bool { get }
    /// Whether byte counts should be reported as they change; asked per exchange.
    var observesProgress: Bool { get }
    /// Whether a final response's body waits until the delegate decides on its head (it then
    /// calls `releaseResponse()` or cancels the task); asked per exchange.
    var awaitsResponseDisposition: Bool { get }
    /// Byte counts of the current exchange changed. Engine thread.
    func task(_ task: SessionTask, didUpdate progress: TransferProgress)
    /// The head of a final response arrived (engine thread), or a response that became final
    /// afterwards (a redirect not followed, a cached one; the task's queue).
    func task(_ task: SessionTask, didReceiveResponse response: HTTPURLResponse)
    /// Body bytes arrived. Engine thread.
    func task(_ task: SessionTask, didReceive data: Data)
    /// A redirect is about to be followed; call `completion` with the request to send, or `nil` to stop.
    func task(_ task: SessionTask, willRedirectTo request: URLRequest, response: HTTPURLResponse,
              completion: @escaping @Sendable (URLRequest?) -> Void)
    /// A response may go into the session's cache; call `completion` with what to store, or nil.
    func task(_ task: SessionTask, willCacheResponse response: CachedURLResponse,
              completion: @escaping @Sendable (CachedURLResponse?) -> Void)
    /// Whether the task may wait for connectivity rather than fail (not once the request's
    /// retries were stopped).
    var mayWaitForConnectivity: Bool { get }
    /// The task found no network path and waits for one (`waitsForConnectivity`); once per task.
    func taskIsWaitingForConnectivity(_ task: SessionTask)
    /// The task ended.
    func task(_ task: SessionTask, didCompleteWith result: SessionTask.Result)
    /// Where the task's end is best handled when the engine is busy: the one queue of the
    /// delegate's handlers, which then runs the completion inside the task's queue and the
    /// handlers after it, with no trip between. Nil: on the task's queue.
    var completionQueue: DispatchQueue? { get }
}

extension SessionTaskDelegate {
    var completionQueue: DispatchQueue? { nil }
}

/// One attempt of a `Request`, following redirects, run by the engine. Requests hand it out as
/// a `URLSessionTask` (see `EngineBackedTask`), made only when asked for.
final class SessionTask: @unchecked Sendable, CustomStringConvertible {
    /// Where the task is in its life.
    typealias State = URLSessionTask.State

    /// What a task produced.
    struct Result: @unchecked Sendable {
        var request: URLRequest
        var response: ReceivedResponse?
        var data: Data
        var error: (any Error)?
        var metrics: TaskMetrics
        /// The file the body went to, and the offset the last exchange continued it from (a
        /// resumed download's error answer goes to `answerFile`, leaving the partial file alone).
        var download: DownloadTarget?
        /// The file holding a resumed download's error answer (then not in `data`); the
        /// receiver moves or removes it.
        var answerFile: URL?

        /// Whether the final body is in the download file (else in `data` or `answerFile`; a
        /// file URL's body, which has no HTTP head to place it by, is in `data`).
        var bodyIsInFile: Bool {
            guard let download, response != nil else { return false }
            guard download.resumeOffset > 0 else { return true }
            return response.map { (200..<300).contains($0.statusCode) } ?? false
        }
    }

    struct MutableState {
        var state: State = .suspended
        var currentRequest: URLRequest
        var response: ReceivedResponse?
        var transfer: Transfer?
        var transactions: [TransactionMetrics] = []
        var hopStart = Date()
        var bytesReceived: Int64 = 0
        var bytesSent: Int64 = 0
        /// Why the task failed, once it completed.
        var error: (any Error)?
        var hasStarted = false
        /// Whether this hop's exchange is the second attempt after a trust evaluator fetched data.
        var fetchedForTrust = false
        /// The stored response a conditional request is revalidating.
        @OutOfLine var cacheRevalidating: HTTPCacheEntry?
        /// Whether the response may be stored (the request did not say no-store).
        var cacheMayStore = true
        /// Where each exchange writes its response body, instead of memory.
        var download: DownloadTarget?
        /// The last exchange's file holding a resumed download's error answer, until reported.
        var answerFile: URL?
        /// A redirect not followed, reported as the response, whose end waits for the
        /// delegate's decision on its head (`releaseResponse(heldAnswer:)` or `cancel()`), and
        /// for the task to run.
        var heldAnswer: HeldAnswer?
        /// The exchange found no network path and waits for the network to change (see
        /// `SessionTask+Connectivity`); what it ended with, to report if the wait ends first.
        var connectivityWait: ConnectivityWait?
        /// The load by an app's `URLProtocol` serving the task, while it runs.
        var protocolLoader: ProtocolLoader?
        /// Whether the task has waited for connectivity (the delegate hears it once).
        var hasWaitedForConnectivity = false
        /// Answers held so far: each held answer's number, which its release must name.
        var heldAnswers = 0
        /// The number of the held answer the delegate let in while the task was suspended: it
        /// ends once the task resumes.
        var releasedHeldAnswer: Int?
        /// Who gets the task's reports: held strongly until the task reported its end or the
        /// delegate let it go (`detachDelegate()`), nil after. A weak reference would give
        /// every request a side table, which makes each retain and release of it slower.
        var delegate: (any SessionTaskDelegate)?
    }

    private static let identifiers = Atomic<Int>(0)

    /// A number unique among the tasks of this process.
    let taskIdentifier: Int
    /// The request the task was created with.
    let originalRequest: URLRequest?
    let engine: CurlEngine
    let configuration: TaskConfiguration
    let queue: DispatchQueue
    /// Sent only to the origin of `originalRequest`, never after a redirect to another one.
    private let credential: HTTPCredential?
    /// The upload body; it follows redirects that keep the method (307, 308).
    let upload: TransferUpload?
    /// Set for a streamed response body: chunks go to the delegate as they arrive, paced by it.
    let bodyStream: StreamFlowControl?
    let startDate = Date()
    let mutableState: Protected<MutableState>
    /// The trips between threads, counted with the request's.
    let handOffs: HandOffs

    init(request: URLRequest, engine: CurlEngine, configuration: TaskConfiguration,
         queue: DispatchQueue, delegate: any SessionTaskDelegate, credential: HTTPCredential? = nil,
         upload: TransferUpload? = nil, download: DownloadTarget? = nil,
         bodyStream: StreamFlowControl? = nil, handOffs: HandOffs = HandOffs()) {
        taskIdentifier = Self.identifiers.wrappingAdd(1, ordering: .relaxed).newValue
        originalRequest = request
        self.engine = engine
        self.configuration = configuration
        self.queue = queue
        self.credential = credential
        self.upload = upload
        self.bodyStream = bodyStream
        self.handOffs = handOffs
        mutableState = Protected(MutableState(currentRequest: request, download: download, delegate: delegate))
        bodyStream?.onWake { [weak self] in self?.resumeFlow() }
    }

    /// Who gets the task's reports, until it reported its end or was detached.
    var delegate: (any SessionTaskDelegate)? { mutableState.withLock { $0.delegate } }

    /// Stops the task's reports (its delegate finished): the delegate is no longer kept alive.
    func detachDelegate() {
        let detached = mutableState.withLock { state in
            defer { state.delegate = nil }
            return state.delegate
        }
        // Released outside the lock: a delegate's deinit may run here.
        withExtendedLifetime(detached) {}
    }

    /// The request of the current hop (after redirects).
    var currentRequest: URLRequest? { mutableState.withLock { $0.currentRequest } }
    /// The final response, once the task completed.
    var response: URLResponse? { mutableState.withLock { $0.response }?.httpResponse }
    /// The task's state.
    var state: State { mutableState.withLock { $0.state } }
    /// Why the task failed, once it completed.
    var error: (any Error)? { mutableState.withLock { $0.error } }
    /// Body bytes received so far (of finished hops).
    var countOfBytesReceived: Int64 { mutableState.withLock { $0.bytesReceived } }
    /// Body bytes sent so far (of finished hops).
    var countOfBytesSent: Int64 { mutableState.withLock { $0.bytesSent } }
    /// The final response's announced body length; -1 until known.
    var countOfBytesExpectedToReceive: Int64 {
        mutableState.withLock { $0.response }?.httpResponse.expectedContentLength ?? -1
    }
    /// The request body's length, when it is known before sending; else 0.
    var countOfBytesExpectedToSend: Int64 {
        Int64(upload?.data?.count ?? originalRequest?.httpBody?.count ?? 0)
    }

    var description: String {
        "SessionTask \(taskIdentifier) \(currentRequest?.httpMethod ?? "GET") \(currentRequest?.url?.absoluteString ?? "")"
    }

    /// Starts or resumes the task; a held answer the delegate let in meanwhile then ends.
    func resume() {
        // Asked before taking the task's lock: the delegate answers under its own lock, which
        // may be held by a thread waiting for this task's (a request cancelling it).
        let reporting = currentReporting
        // Without a trust manager there is nothing to ask (and no URL to read under the lock).
        let trust = configuration.serverTrustManager == nil ? nil : configuration.trustRequirement(for: currentRequest?.url)
        let cache = configuration.httpCache
        // Asked outside the lock too: the classes are the app's code.
        let served = configuration.protocolClasses.classes.isEmpty ? nil
            : mutableState.withLock { $0.hasStarted ? nil : $0.currentRequest }.flatMap(configuration.protocolClasses.serving)
        typealias Action = (start: Transfer?, unpause: Transfer?, consultCache: Bool, endsReleasedAnswer: Bool,
                            protocolClass: URLProtocol.Type?)
        let action = mutableState.withLock { state -> Action in
            guard state.state == .suspended else { return (nil, nil, false, false, nil) }
            state.state = .running
            if state.hasStarted { return (nil, state.transfer, false, state.releasedHeldAnswer != nil, nil) }
            state.hasStarted = true
            if let served, (state.download?.resumeOffset ?? 0) == 0 { return (nil, nil, false, false, served) }
            if cache != nil, usesHTTPCache(download: state.download) { return (nil, nil, true, false, nil) }
            let transfer = makeTransfer(for: state.currentRequest, download: state.download, reporting: reporting, trust: trust)
            state.transfer = transfer
            state.hopStart = Date()
            return (transfer, nil, false, false, nil)
        }
        if let transfer = action.start {
            handOffs.record()
            engine.start(transfer)
        }
        if let transfer = action.unpause { engine.unpause(transfer) }
        // Ended on the task's queue, where a suspension asked for right after is applied later.
        if action.endsReleasedAnswer { queue.runOrAsync(recording: handOffs) { self.endReleasedAnswer() } }
        // The cache is read on the task's queue (at once when resumed there, as a request's task
        // is), never on another caller's thread or the engine's.
        if action.consultCache, let cache { queue.runOrAsync(recording: handOffs) { self.startThroughCache(cache) } }
        if let served = action.protocolClass { queue.runOrAsync(recording: handOffs) { self.startThroughProtocol(served) } }
    }

    /// Pauses the task; data stops flowing until `resume()`.
    func suspend() {
        let transfer = mutableState.withLock { state -> Transfer? in
            guard state.state == .running else { return nil }
            state.state = .suspended
            return state.transfer
        }
        if let transfer { engine.pause(transfer) }
    }

    /// Lets a response body in once a decision on its head was taken elsewhere.
    /// `heldAnswer` nil: the current exchange's transfer, paused at its first chunk, goes on.
    /// Otherwise the number of the held answer (`heldAnswerNumber`) the decision was taken on:
    /// that answer ends, on the task's queue, later than this call returns (nothing, if it
    /// already ended; once the task resumes, if it is suspended).
    func releaseResponse(heldAnswer number: Int? = nil) {
        if let number {
            // Taken on the task's queue, after a suspension the caller asked for before this
            // (`Request.suspend()` applies it there too, through `runOrAsync`, so in order).
            return queue.runOrAsync(recording: handOffs) { self.endReleasedAnswer(releasing: number) }
        }
        guard let transfer = openResponseGate() else { return }
        engine.resumeFlow(transfer)
    }

    /// Ends the held answer the delegate let in (`number`, if it is the one held, or the one let
    /// in before), if the task runs: a suspended one waits for `resume()`; a cancelled one ended
    /// it already.
    private func endReleasedAnswer(releasing number: Int? = nil) {
        let held = mutableState.withLock { state -> HeldAnswer? in
            if let number, state.heldAnswer?.number == number { state.releasedHeldAnswer = number }
            guard state.state == .running, let released = state.releasedHeldAnswer, state.heldAnswer?.number == released else {
                return nil
            }
            state.releasedHeldAnswer = nil
            return state.heldAnswer.take()
        }
        if let held { endHeldAnswer(held) }
    }

    /// The number of the answer held for a decision on its head, if one is.
    var heldAnswerNumber: Int? { mutableState.withLock { $0.heldAnswer?.number } }

    /// Opens the current exchange's response gate; returns the transfer whose gate it opened.
    @discardableResult
    private func openResponseGate() -> Transfer? {
        guard let transfer = mutableState.withLock({ $0.transfer }), let gate = transfer.spec.responseGate else { return nil }
        gate.open()
        return transfer
    }

    /// Lets a transfer that paused itself for its consumer go on.
    private func resumeFlow() {
        if let transfer = mutableState.withLock({ $0.transfer }) { engine.resumeFlow(transfer) }
    }

    /// Cancels the task; it completes with `URLError.cancelled`.
    func cancel() {
        enum Stop { case none, transfer(Transfer), held(HeldAnswer), waiting(ConnectivityWait), loading(ProtocolLoader) }
        let stop = mutableState.withLock { state -> Stop in
            guard state.state == .running || state.state == .suspended else { return .none }
            state.state = .canceling
            if let held = state.heldAnswer.take() { return .held(held) }
            if let wait = state.connectivityWait.take() { return .waiting(wait) }
            if !state.hasStarted {
                state.hasStarted = true
                // Never run: it only carries the cancellation to the delegate.
                let transfer = makeTransfer(for: state.currentRequest, download: state.download, reporting: .none, trust: nil)
                state.transfer = transfer
                return .transfer(transfer)
            }
            if let loader = state.protocolLoader { return .loading(loader) }
            return state.transfer.map(Stop.transfer) ?? .none
        }
        switch stop {
        case .none: break
        case let .transfer(transfer): engine.cancel(transfer)
        case let .held(held): queue.runOrAsync(recording: handOffs) { self.cancelHeldAnswer(held) }
        case let .waiting(wait): queue.runOrAsync(recording: handOffs) { self.endConnectivityWait(wait, cancelled: true) }
        case let .loading(loader): loader.cancel()
        }
    }

    /// What the delegate wants reported of the next exchange. Never asked under the task's lock
    /// (nor is the trust manager, in `TaskConfiguration.trustRequirement`).
    struct Reporting {
        var events: Bool
        var progress: Bool
        /// Whether the final response's body waits for `releaseResponse()`.
        var holdsResponse = false

        static let none = Reporting(events: false, progress: false)
    }

    var currentReporting: Reporting {
        guard let delegate else { return .none }
        return Reporting(events: delegate.observesTransferEvents, progress: delegate.observesProgress,
                         holdsResponse: delegate.awaitsResponseDisposition)
    }

    /// The challenge credential to send with `request`: only where the task's request first went
    /// (compared only when there is one).
    func credential(for request: URLRequest) -> HTTPCredential? {
        guard let credential, let url = request.url, let origin = originalRequest?.url,
              RedirectRules.isSameOrigin(origin, url) else { return nil }
        return credential
    }

    /// The transfer for one hop of `request`; under the state lock, so it must not call the
    /// delegate. A streamed body is also kept for the HTTP cache when `copyingStreamForCache`.
    /// `sending`: what the hop sends, when the cache lookup has just worked it out for `request`.
    func makeTransfer(for request: URLRequest, download: DownloadTarget?, reporting: Reporting,
                      trust: TrustRequirement?, copyingStreamForCache: Bool = false, sending: TransferSpec? = nil) -> Transfer {
        // The spec is handed over as made, not copied: a copy retains each of its references.
        Transfer(spec: transferSpec(for: request, download: download, holdsResponse: reporting.holdsResponse, trust: trust,
                                    copyingStreamForCache: copyingStreamForCache, sending: sending),
                 delegate: self, reportsEvents: reporting.events, reportsProgress: reporting.progress)
    }

    private func transferSpec(for request: URLRequest, download: DownloadTarget?, holdsResponse: Bool,
                              trust: TrustRequirement?, copyingStreamForCache: Bool, sending: TransferSpec?) -> TransferSpec {
        // A redirect that changed the method (to GET) leaves the upload behind (asked only with
        // an upload: each read of a method makes a String).
        let keepsBody = upload == nil || request.httpMethod == originalRequest?.httpMethod
        var spec = sending ?? configuration.transferSpec(for: request, credential: credential(for: request),
                                                         upload: keepsBody ? upload : nil, download: download)
        spec.bodyStream = bodyStream
        if bodyStream != nil, copyingStreamForCache, configuration.httpCache != nil {
            spec.streamCopyLimit = TaskConfiguration.streamCopyLimit
        }
        spec.trust = trust
        spec.responseGate = holdsResponse ? ResponseGate() : nil
        return spec
    }
}

