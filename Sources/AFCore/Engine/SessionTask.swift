import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Receives a task's events on the queue the task was given.
protocol SessionTaskDelegate: AnyObject, Sendable {
    /// A redirect is about to be followed; call `completion` with the request to send, or `nil` to stop.
    func task(_ task: SessionTask, willRedirectTo request: URLRequest, response: HTTPURLResponse,
              completion: @escaping @Sendable (URLRequest?) -> Void)
    /// The task ended.
    func task(_ task: SessionTask, didCompleteWith result: SessionTask.Result)
}

/// One attempt of a `Request`, following redirects: AF's counterpart of `URLSessionTask`.
public final class SessionTask: @unchecked Sendable, CustomStringConvertible {
    /// Where the task is in its life.
    public enum State: Sendable {
        case running, suspended, canceling, completed
    }

    /// What a task produced.
    struct Result: @unchecked Sendable {
        var request: URLRequest
        var response: HTTPURLResponse?
        var data: Data
        var error: (any Error)?
        var metrics: TaskMetrics
    }

    private struct MutableState {
        var state: State = .suspended
        var currentRequest: URLRequest
        var response: HTTPURLResponse?
        var transfer: Transfer?
        var transactions: [TransactionMetrics] = []
        var hopStart = Date()
        var bytesReceived: Int64 = 0
        var bytesSent: Int64 = 0
        var hasStarted = false
    }

    private static let identifiers = Protected(0)

    /// A number unique among the tasks of this process.
    public let taskIdentifier: Int
    /// The request the task was created with.
    public let originalRequest: URLRequest?
    private let engine: CurlEngine
    private let configuration: TaskConfiguration
    private let queue: DispatchQueue
    private weak var delegate: (any SessionTaskDelegate)?
    private let startDate = Date()
    private let mutableState: Protected<MutableState>

    init(request: URLRequest, engine: CurlEngine, configuration: TaskConfiguration,
         queue: DispatchQueue, delegate: any SessionTaskDelegate) {
        taskIdentifier = Self.identifiers.withLock { value in
            value += 1
            return value
        }
        originalRequest = request
        self.engine = engine
        self.configuration = configuration
        self.queue = queue
        self.delegate = delegate
        mutableState = Protected(MutableState(currentRequest: request))
    }

    /// The request of the current hop (after redirects).
    public var currentRequest: URLRequest? { mutableState.withLock { $0.currentRequest } }
    /// The final response, once the task completed.
    public var response: URLResponse? { mutableState.withLock { $0.response } }
    /// The task's state.
    public var state: State { mutableState.withLock { $0.state } }
    /// Body bytes received so far (of finished hops).
    public var countOfBytesReceived: Int64 { mutableState.withLock { $0.bytesReceived } }
    /// Body bytes sent so far (of finished hops).
    public var countOfBytesSent: Int64 { mutableState.withLock { $0.bytesSent } }

    public var description: String {
        "SessionTask \(taskIdentifier) \(currentRequest?.httpMethod ?? "GET") \(currentRequest?.url?.absoluteString ?? "")"
    }

    /// Starts or resumes the task.
    public func resume() {
        let action = mutableState.withLock { state -> (start: Transfer?, unpause: Transfer?) in
            guard state.state == .suspended else { return (nil, nil) }
            state.state = .running
            if state.hasStarted { return (nil, state.transfer) }
            state.hasStarted = true
            let transfer = makeTransfer(for: state.currentRequest)
            state.transfer = transfer
            state.hopStart = Date()
            return (transfer, nil)
        }
        if let transfer = action.start { engine.start(transfer) }
        if let transfer = action.unpause { engine.unpause(transfer) }
    }

    /// Pauses the task; data stops flowing until `resume()`.
    public func suspend() {
        let transfer = mutableState.withLock { state -> Transfer? in
            guard state.state == .running else { return nil }
            state.state = .suspended
            return state.transfer
        }
        if let transfer { engine.pause(transfer) }
    }

    /// Cancels the task; it completes with `URLError.cancelled`.
    public func cancel() {
        let transfer = mutableState.withLock { state -> Transfer? in
            guard state.state == .running || state.state == .suspended else { return nil }
            state.state = .canceling
            if !state.hasStarted {
                state.hasStarted = true
                let transfer = makeTransfer(for: state.currentRequest)
                state.transfer = transfer
                return transfer
            }
            return state.transfer
        }
        if let transfer { engine.cancel(transfer) }
    }

    private func makeTransfer(for request: URLRequest) -> Transfer {
        Transfer(spec: configuration.transferSpec(for: request), delegate: self)
    }
}

extension SessionTask: TransferDelegate {
    func transferDidComplete(_ transfer: Transfer, outcome: TransferOutcome) {
        queue.async { self.complete(transfer, outcome: outcome) }
    }

    private func complete(_ transfer: Transfer, outcome: TransferOutcome) {
        let url = transfer.spec.requestURL
        // Built here, once per hop, off the engine thread.
        let response = url.flatMap { outcome.head?.httpResponse(for: $0) }
        if let response, let head = outcome.head { configuration.storeCookies(from: response, head: head) }

        let (request, hopCount, cancelled) = mutableState.withLock { state in
            state.transactions.append(outcome.timings.transactionMetrics(
                request: state.currentRequest, response: response, start: state.hopStart))
            state.bytesReceived += outcome.timings.downloaded
            state.bytesSent += outcome.timings.uploaded
            return (state.currentRequest, state.transactions.count, state.state == .canceling)
        }

        if !cancelled, !outcome.wasCancelled, outcome.failure == nil, let response,
           let next = RedirectRules.nextRequest(after: request, response: response) {
            guard hopCount <= TaskConfiguration.maximumRedirects else {
                let error = URLError(.httpTooManyRedirects, userInfo: [NSURLErrorFailingURLErrorKey: next.url as Any])
                return finish(request: request, response: response, data: outcome.body, error: error)
            }
            guard let delegate else {
                return finish(request: request, response: response, data: outcome.body, error: nil)
            }
            delegate.task(self, willRedirectTo: next, response: response) { chosen in
                self.queue.async { self.follow(chosen, after: request, response: response, body: outcome.body) }
            }
            return
        }

        var error: (any Error)?
        if cancelled || outcome.wasCancelled {
            error = URLError(.cancelled, userInfo: [NSURLErrorFailingURLErrorKey: url as Any])
        } else if let failure = outcome.failure {
            error = failure.urlError(failingURL: url)
        }
        finish(request: request, response: response, data: outcome.body, error: error)
    }

    private func follow(_ next: URLRequest?, after request: URLRequest, response: HTTPURLResponse, body: Data) {
        guard let next else {
            return finish(request: request, response: response, data: body, error: nil)
        }
        let transfer = mutableState.withLock { state -> Transfer? in
            guard state.state == .running || state.state == .suspended else { return nil }
            state.currentRequest = next
            state.hopStart = Date()
            let transfer = makeTransfer(for: next)
            state.transfer = transfer
            return transfer
        }
        guard let transfer else {
            let error = URLError(.cancelled, userInfo: [NSURLErrorFailingURLErrorKey: next.url as Any])
            return finish(request: request, response: response, data: body, error: error)
        }
        if state == .suspended { engine.pause(transfer) }
        engine.start(transfer)
    }

    private func finish(request: URLRequest, response: HTTPURLResponse?, data: Data, error: (any Error)?) {
        let metrics = mutableState.withLock { state -> TaskMetrics in
            state.state = .completed
            state.response = response
            state.transfer = nil
            return TaskMetrics(taskInterval: DateInterval(start: startDate, end: Date()),
                               redirectCount: state.transactions.count - 1,
                               transactionMetrics: state.transactions)
        }
        let result = Result(request: request, response: response, data: data, error: error, metrics: metrics)
        delegate?.task(self, didCompleteWith: result)
    }
}


