import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The common base of every request a `Session` makes: its state, its attempts (URL requests,
/// tasks and metrics), its error and its response handlers.
public class Request: @unchecked Sendable {
    /// Queue that orders every internal event of the request.
    public let underlyingQueue: DispatchQueue
    /// Queue on which response serializers run.
    public let serializationQueue: DispatchQueue
    /// The request's identity.
    public let id: UUID
    /// Whether the request starts when a response handler is added (`nil`: the session decides).
    public let shouldAutomaticallyResume: Bool?
    /// The session that made the request.
    // Set once, as the request is made: its reads go without the runtime's exclusivity checks.
    @exclusivity(unchecked) public private(set) weak var delegate: (any RequestDelegate)?
    /// The interceptor given when the request was made; it runs after the session's.
    public let interceptor: (any RequestInterceptor)?
    /// The session's monitors; `eventMonitor(_:)` adds monitors for this request only.
    public var eventMonitor: (any EventMonitor)? { sessionMonitors }

    struct MutableState {
        var state: State = .initialized
        var setupRequested = false
        var setupStarted = false
        /// Whether the session has taken the request in (see `didRegister`).
        var isRegistered = false
        /// A response handler was added before an eager session's queued registration ran:
        /// resume then, if automatic.
        var resumesOnRegistration = false
        var hasFinished = false
        var requests = SmallList<URLRequest>()
        var tasks = SmallList<SessionTask>()
        var metrics = SmallList<TaskMetrics>()
        var response: ReceivedResponse?
        var retryCount = 0
        @OutOfLine var error: AFError?
        var validators = ClosureList()
        var responseSerializers = ClosureList()
        var responseSerializerCompletions = SmallList<ResponseDelivery>()
        var responseSerializerProcessingFinished = false
        /// A serializer's result waiting on the retry a retrier asked for: delivered instead if
        /// the request is cancelled before that retry begins.
        var serializerAwaitingRetry: (@Sendable () -> Void)?
        /// Set once retries were stopped (`stopRetrying(because:)`, the deadline): what the
        /// request ends with instead of another attempt.
        var retryStop: RetryStop?
        /// A retrier is deciding about the failure `error`; `stop` ends that wait with a final error.
        @OutOfLine var retryDecision: (error: AFError, stop: @Sendable (AFError) -> Void)?
        /// A retrier asked for another attempt, which has not begun (it may wait for its delay).
        var retryScheduled = false
        /// The timer of a retry waiting for its delay. Cancelled when that retry will not begin
        /// (a cancel, a stop of the retries), so the Session its handler holds is let go at once,
        /// not at the end of the delay.
        var retryTimer: RetryTimer?
        /// Whether `deadline(after:)` was set, and whether it passed (an attempt made from then
        /// on is cancelled at once).
        var hasDeadline = false
        var deadlinePassed = false
        @OutOfLine var urlRequestHandler: (queue: DispatchQueue, handler: @Sendable (URLRequest) -> Void)?
        @OutOfLine var taskHandler: (queue: DispatchQueue, handler: @Sendable (URLSessionTask) -> Void)?
        @OutOfLine var httpResponseHandler: (queue: DispatchQueue, handler: HTTPResponseHandler)?
        /// Run once the response serializers are done (the event sequences end there).
        var finishHandlers: [@Sendable () -> Void] = []
        /// The `URLSessionTask`s handed out for `tasks`, made when first asked for.
        var urlSessionTasks: [any EngineBackedTask] = []
        @OutOfLine var cURLHandler: (queue: DispatchQueue, handler: @Sendable (String) -> Void)?
        @OutOfLine var uploadProgressHandler: (queue: DispatchQueue, handler: ProgressHandler)?
        @OutOfLine var downloadProgressHandler: (queue: DispatchQueue, handler: ProgressHandler)?
        var lastProgress = TransferProgress()
        @OutOfLine var redirectHandler: (any RedirectHandler)?
        @OutOfLine var cachedResponseHandler: (any CachedResponseHandler)?
        var credential: URLCredential?
        /// Added with `interceptor(_:)`, `adapt(using:)`, `retry(using:)`; run after `interceptor`.
        var adapters: [any RequestAdapter] = []
        var retriers: [any RequestRetrier] = []
        /// Added with `eventMonitor(_:)`; they get request events only.
        var eventMonitors: [any EventMonitor] = []
        /// `uploadProgress` and `downloadProgress`, once someone needed them.
        var uploadProgress: Progress?
        var downloadProgress: Progress?
        /// The body a `DataRequest` received, once its request completed (kept here, under the
        /// one lock, rather than in a lock of its own).
        var data: Data?
        /// The queue of every response handler added so far (see `completionQueue`).
        var handlerQueues = HandlerQueues.none
        /// The session's queues an event handler's call was sent to while the request ran on a
        /// queue of its own, which its completion passes through (see `callEventHandler(on:_:)`).
        var eventHandlerQueues: [DispatchQueue] = []

        /// Whether an event handler (progress, URL request, task, cURL description) is called on
        /// `queue`: a response handler there must then not run inside the completion, which
        /// could come before the handler's last call is queued (see `completionQueue`).
        func hasEventHandler(on queue: DispatchQueue) -> Bool {
            uploadProgressHandler?.queue === queue || downloadProgressHandler?.queue === queue
                || urlRequestHandler?.queue === queue || taskHandler?.queue === queue || cURLHandler?.queue === queue
        }

        /// Whether a handler of the request's attempts (URL requests, tasks, cURL descriptions,
        /// response heads) is kept: not once the request is done, when none would be called
        /// again and one holding the request would keep it alive (see `dropAttemptHandlers`).
        var keepsAttemptHandlers: Bool { !responseSerializerProcessingFinished }

        /// Drops the handlers of attempts and their bytes once the request is done: they often
        /// capture the request itself (to cancel it), so such a cycle ends here. An attempt can
        /// still begin after (a serializer added later that a retrier retries); it runs without them.
        mutating func dropAttemptHandlers() {
            uploadProgressHandler = nil
            downloadProgressHandler = nil
            httpResponseHandler = nil
            urlRequestHandler = nil
            taskHandler = nil
            cURLHandler = nil
        }
    }

    let mutableState = Protected(MutableState())
    /// The request's place among its session's active ones; -1 when not among them. Read and
    /// written only under the session's lock for that list (see `ActiveRequests`).
    var activeSlot = -1
    /// The trips the request's work made between threads (see `HandOffs`).
    let handOffs = HandOffs()

    /// The session's monitors (`eventMonitor`), typed.
    let sessionMonitors: CompositeEventMonitor?
    /// Whether a monitor of the session gets events (beyond the notification posters).
    let sessionIsObserved: Bool
    /// Whether the session posts request events as notifications.
    let sessionNotifies: Bool
    /// Whether `eventMonitor(_:)` added a monitor of this request's own.
    let ownMonitorsAdded = Atomic<Bool>(false)
    /// Whether `underlyingQueue` is the request's own (see `Session.queues(forRequestWith:)`),
    /// which also runs its serializers; else it is the session's `rootQueue`.
    let ownsQueue: Bool

    /// Bytes of the request body sent, of those expected (0 when unknown).
    public var uploadProgress: Progress { progress(\.uploadProgress) }
    /// Bytes of the response body received, of those expected (0 when unknown).
    public var downloadProgress: Progress { progress(\.downloadProgress) }

    /// The progress object at `slot`, made on first use: most requests never read it, and a
    /// Progress costs more to make than parsing the response head.
    private func progress(_ slot: WritableKeyPath<MutableState, Progress?>) -> Progress {
        mutableState.withLock { state in
            if let progress = state[keyPath: slot] { return progress }
            let progress = Progress(totalUnitCount: 0)
            state[keyPath: slot] = progress
            return progress
        }
    }

    /// Whether the progress objects are kept current even without a handler (uploads, downloads).
    var keepsProgressCurrent: Bool { false }

    init(id: UUID = .fastRandom(), underlyingQueue: DispatchQueue, serializationQueue: DispatchQueue,
         eventMonitor: CompositeEventMonitor?, interceptor: (any RequestInterceptor)?,
         shouldAutomaticallyResume: Bool?, delegate: any RequestDelegate) {
        self.id = id
        sessionMonitors = eventMonitor
        sessionIsObserved = eventMonitor?.hasObservers ?? false
        sessionNotifies = eventMonitor?.hasNotifiers ?? false
        self.interceptor = interceptor
        self.underlyingQueue = underlyingQueue
        self.serializationQueue = serializationQueue
        ownsQueue = underlyingQueue === serializationQueue
        self.shouldAutomaticallyResume = shouldAutomaticallyResume
        self.delegate = delegate
    }

    deinit {
        // A queue of the request's own goes back to its session for the next request.
        if ownsQueue { session?.requestQueues.keep(underlyingQueue) }
    }

    /// Builds the `URLRequest` of a new attempt; each subclass knows its source.
    func makeURLRequest() throws -> URLRequest {
        throw AFError.createURLRequestFailed(error: URLError(.badURL))
    }

    /// Keeps what a subclass needs of a finished task (its body, its file); runs before validation.
    func store(_ result: SessionTask.Result) {}

    /// The request is about to finish, before its serializers run (once, on `underlyingQueue`).
    func willFinish() {}

    /// Releases what the request holds once its handlers ran (an upload's temporary file).
    func cleanup() {}

    /// The head of the attempt's final response arrived (engine thread): a stream validates it.
    func didReceiveResponseHead(_ response: HTTPURLResponse, task: SessionTask) {}

    /// A chunk of a streamed response body arrived (engine thread).
    func didReceiveStreamedBody(_ data: Data) {}

    /// What `prepareBody` hands back: run on `rootQueue`, it records the body made (true) or
    /// fails the attempt with the error that stopped it (false).
    typealias BodyStep = @Sendable () -> Bool

    /// Makes what an attempt sends besides its URLRequest, on `requestQueue` once the
    /// URLRequest was made; nil when the kind of request has no body of its own (only uploads do).
    func prepareBody() -> BodyStep? { nil }

    /// Makes the engine task of an attempt; each kind of request hands over what it adds to
    /// the exchange (an upload's body, a download's file, a stream's pacing).
    func makeSessionTask(for urlRequest: URLRequest, in session: Session) -> SessionTask {
        session.makeSessionTask(for: urlRequest, by: self)
    }

    /// The `URLSessionTask` that stands for `task`; each kind of request has its own kind.
    func makeURLSessionTask(for task: SessionTask) -> any EngineBackedTask { EngineDataTask(task) }

    /// The `URLSessionTask` handed out for `task`: made on first ask, the same object after.
    func urlSessionTask(for task: SessionTask) -> URLSessionTask {
        mutableState.withLock { state in
            if let made = state.urlSessionTasks.first(where: { $0.engineTask === task }) { return made }
            let made = makeURLSessionTask(for: task)
            state.urlSessionTasks.append(made)
            return made
        }
    }

    // MARK: State

    /// The request's state.
    public var state: State { mutableState.withLock { $0.state } }
    /// Whether the state is `.initialized`.
    public var isInitialized: Bool { state == .initialized }
    /// Whether the state is `.resumed`.
    public var isResumed: Bool { state == .resumed }
    /// Whether the state is `.suspended`.
    public var isSuspended: Bool { state == .suspended }
    /// Whether the state is `.cancelled`.
    public var isCancelled: Bool { state == .cancelled }
    /// Whether the state is `.finished`.
    public var isFinished: Bool { state == .finished }

    // MARK: Attempts

    /// Every `URLRequest` made for this request, one per attempt.
    public var requests: [URLRequest] { Array(mutableState.withLock { $0.requests }) }
    /// The first `URLRequest` made.
    public var firstRequest: URLRequest? { mutableState.withLock { $0.requests.first } }
    /// The latest `URLRequest` made.
    public var lastRequest: URLRequest? { mutableState.withLock { $0.requests.last } }
    /// The latest `URLRequest` made.
    public var request: URLRequest? { lastRequest }
    /// The requests the tasks actually sent last (after redirects).
    public var performedRequests: [URLRequest] { mutableState.withLock { $0.tasks }.compactMap(\.currentRequest) }
    /// The final response of the latest attempt.
    public var response: HTTPURLResponse? { receivedResponse?.httpResponse }
    /// The same as received: what AF's own validation and serializers read.
    var receivedResponse: ReceivedResponse? { mutableState.withLock { $0.response } }
    /// Every task made, one per attempt.
    public var tasks: [URLSessionTask] { mutableState.withLock { $0.tasks }.map(urlSessionTask(for:)) }
    /// The first task.
    public var firstTask: URLSessionTask? { mutableState.withLock { $0.tasks.first }.map(urlSessionTask(for:)) }
    /// The latest task.
    public var lastTask: URLSessionTask? { mutableState.withLock { $0.tasks.last }.map(urlSessionTask(for:)) }
    /// The latest task.
    public var task: URLSessionTask? { lastTask }
    /// The metrics of every finished attempt.
    public var allMetrics: [TaskMetrics] { Array(mutableState.withLock { $0.metrics }) }
    /// The metrics of the first attempt.
    public var firstMetrics: TaskMetrics? { mutableState.withLock { $0.metrics.first } }
    /// The metrics of the latest attempt.
    public var lastMetrics: TaskMetrics? { mutableState.withLock { $0.metrics.last } }
    /// The metrics of the latest attempt.
    public var metrics: TaskMetrics? { lastMetrics }
    /// How many times the request was retried.
    public var retryCount: Int { mutableState.withLock { $0.retryCount } }
    /// The error the request ended with, if any.
    public internal(set) var error: AFError? {
        get { mutableState.withLock { $0.error } }
        set { mutableState.withLock { $0.error = newValue } }
    }

    // MARK: Lifecycle

    /// What a `resume()` found to do.
    private enum ResumeAction: Sendable { case none, resumed, setup, resumeTask(SessionTask) }

    /// Starts or resumes the request; callable from any queue.
    @discardableResult
    public func resume() -> Self {
        let action = mutableState.withLock { state -> ResumeAction in
            guard state.state.canTransition(to: .resumed) else { return .none }
            state.state = .resumed
            if let task = state.tasks.last, task.state != .completed { return .resumeTask(task) }
            if !state.setupRequested, !state.setupStarted {
                state.setupRequested = true
                return .setup
            }
            return .resumed
        }
        if case .none = action { return self }
        if ownsQueue {
            // A queue of the request's own: the caller does the work there itself, no trip.
            underlyingQueue.runOrSync {
                announceResume(action)
                if case .setup = action { askForSetup() }
            }
            return self
        }
        underlyingQueue.runOrAsync(recording: handOffs, { self.announceResume(action) })
        if case .setup = action { askForSetup() }
        return self
    }

    /// Tells the monitors of a resume, then brings the task there is to the request's state.
    private func announceResume(_ action: ResumeAction) {
        emit(notifying: Request.didResumeNotification, .requestDidResume) { $0.requestDidResume(self) }
        if case let .resumeTask(task) = action {
            // The event goes out before the task can report anything (see didCreateTask).
            emit(notifying: Request.didResumeTaskNotification, .requestDidResumeTask) {
                $0.request(self, didResumeTask: self.urlSessionTask(for: task))
            }
            applyState(to: task)
        }
    }

    /// Asks the session to set the request up (its first resume); with the session gone, ends it.
    private func askForSetup() {
        if let delegate {
            delegate.readyToPerform(request: self)
        } else {
            underlyingQueue.async { self.finish(error: .sessionDeinitialized) }
        }
    }

    /// Pauses the request; callable from any queue.
    @discardableResult
    public func suspend() -> Self {
        let (suspended, task) = mutableState.withLock { state -> (Bool, SessionTask?) in
            guard state.state.canTransition(to: .suspended) else { return (false, nil) }
            state.state = .suspended
            return (true, state.tasks.last.flatMap { $0.state == .completed ? nil : $0 })
        }
        guard suspended else { return self }
        underlyingQueue.async { self.emit(notifying: Request.didSuspendNotification, .requestDidSuspend) { $0.requestDidSuspend(self) } }
        if let task {
            underlyingQueue.runOrAsync(recording: handOffs) {
                self.applyState(to: task)
                self.emit(notifying: Request.didSuspendTaskNotification, .requestDidSuspendTask) {
                    $0.request(self, didSuspendTask: self.urlSessionTask(for: task))
                }
            }
        }
        return self
    }

    /// Brings `task` to the request's state as it is now, on `underlyingQueue`. Each resume or
    /// suspend queues one, so the last to run follows the last change, however the calls of
    /// several threads interleave.
    func applyState(to task: SessionTask) {
        switch mutableState.withLock({ $0.state }) {
        case .resumed: task.resume()
        case .suspended: task.suspend()
        case .initialized, .cancelled, .finished: break
        }
    }

    /// Cancels the request; it ends with `AFError.explicitlyCancelled`. Callable from any queue.
    @discardableResult
    public func cancel() -> Self {
        enum Action { case none, cancelTask(SessionTask), finish, completeSerializer(@Sendable () -> Void) }
        var retryTimer: RetryTimer?
        var retryDecision: (error: AFError, stop: @Sendable (AFError) -> Void)?
        defer {
            retryTimer?.cancel()
            // A retrier still deciding (waiting for the network, say) is not waited for.
            retryDecision?.stop(.explicitlyCancelled)
        }
        let action = mutableState.withLock { state -> Action in
            guard state.state.canTransition(to: .cancelled) else { return .none }
            state.state = .cancelled
            state.error = state.error ?? .explicitlyCancelled
            retryTimer = state.retryTimer.take()
            retryDecision = state.retryDecision.take()
            if let task = state.tasks.last, task.state != .completed { return .cancelTask(task) }
            if let delivery = state.serializerAwaitingRetry {
                state.serializerAwaitingRetry = nil
                return .completeSerializer(delivery)
            }
            return .finish
        }
        switch action {
        case .none:
            break
        case let .cancelTask(task):
            // Both events are queued before the task is told: the engine may end it at once, and
            // its completion must come after them.
            underlyingQueue.async {
                self.emit(notifying: Request.didCancelNotification, .requestDidCancel) { $0.requestDidCancel(self) }
                self.emit(notifying: Request.didCancelTaskNotification, .requestDidCancelTask) {
                    $0.request(self, didCancelTask: self.urlSessionTask(for: task))
                }
            }
            task.cancel()
        case .finish:
            underlyingQueue.async {
                self.emit(notifying: Request.didCancelNotification, .requestDidCancel) { $0.requestDidCancel(self) }
                self.finish()
            }
        case let .completeSerializer(delivery):
            // The request finished and a serializer waits on a retry that will not begin now:
            // it delivers the result it had, and the serializers go on.
            underlyingQueue.async {
                self.emit(notifying: Request.didCancelNotification, .requestDidCancel) { $0.requestDidCancel(self) }
                self.responseSerializerDidComplete(completion: delivery)
            }
        }
        return self
    }

    // MARK: Hooks

    /// Calls `handler` with every `URLRequest` made for this request; replays the latest one.
    @discardableResult
    public func onURLRequestCreation(on queue: DispatchQueue = .main,
                                     perform handler: @escaping @Sendable (URLRequest) -> Void) -> Self {
        registerReplaying(handler, on: queue) { state in
            if state.keepsAttemptHandlers { state.urlRequestHandler = (queue, handler) }
            return state.requests.last
        }
    }

    /// Calls `handler` with every task made for this request; replays the latest one.
    @discardableResult
    public func onURLSessionTaskCreation(on queue: DispatchQueue = .main,
                                         perform handler: @escaping @Sendable (URLSessionTask) -> Void) -> Self {
        let latest = mutableState.withLock { state in
            if state.keepsAttemptHandlers { state.taskHandler = (queue, handler) }
            return state.tasks.last
        }
        if let latest {
            let task = urlSessionTask(for: latest)
            queue.async { handler(task) }
        }
        return self
    }

    /// Stores a handler under the lock, then replays the latest value to it, if there is one.
    private func registerReplaying<Value: Sendable>(_ handler: @escaping @Sendable (Value) -> Void, on queue: DispatchQueue,
                                                    store: (inout MutableState) -> Value?) -> Self {
        let latest = mutableState.withLock { store(&$0) }
        if let latest { queue.async { handler(latest) } }
        return self
    }
}

extension Request: Equatable, Hashable {
    public static func == (lhs: Request, rhs: Request) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

extension Request: CustomStringConvertible {
    /// `METHOD URL (status)`, or what is known so far.
    public var description: String {
        guard let request = lastRequest, let method = request.httpMethod, let url = request.url?.absoluteString else {
            return "No request created yet."
        }
        let requestDescription = "\(method) \(url)"
        return response.map { "\(requestDescription) (\($0.statusCode))" } ?? requestDescription
    }
}
