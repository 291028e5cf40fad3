import AFCore
import Foundation

/// Why a request was refused: the Session's service is shutting down.
public struct SessionServiceShuttingDown: Error, CustomStringConvertible, Sendable {
    /// What happened, in words.
    public var description: String { "the session is shutting down and takes no new requests" }
}

/// Lets requests in until it is closed; then stops the retries of those admitted before and
/// knows when the last of them has finished. Built on AFCore's public hooks: an adapter
/// (admission) and an event monitor (the admitted requests and their ends).
final class AdmissionGate: RequestInterceptor, EventMonitor, Sendable {
    private struct State {
        var closed = false
        var admitted: Set<UUID> = []
        /// The admitted requests seen since their admission, whose retries a close stops.
        var requests: [UUID: Request] = [:]
        var idleWaiters: [@Sendable () -> Void] = []
    }

    private let state = Locked(State())
    let queue = DispatchQueue(label: "org.alamofire.service-lifecycle.gate")

    func adapt(_ urlRequest: URLRequest, using state: RequestAdapterState,
               completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void) {
        let admitted = self.state.withLock { gate -> Bool in
            if gate.admitted.contains(state.requestID) { return true }
            guard !gate.closed else { return false }
            gate.admitted.insert(state.requestID)
            return true
        }
        completion(admitted ? .success(urlRequest) : .failure(SessionServiceShuttingDown()))
    }

    /// Without the request's identity (a caller that does not pass it): refused once closed.
    func adapt(_ urlRequest: URLRequest, for session: Session,
               completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void) {
        let closed = state.withLock { $0.closed }
        completion(closed ? .failure(SessionServiceShuttingDown()) : .success(urlRequest))
    }

    func request(_ request: Request, didAdaptInitialRequest initialRequest: URLRequest, to adaptedRequest: URLRequest) {
        track(request)
    }

    /// An adapter after this one failed (a token refresh while offline, say): a retrier may
    /// still retry the request, so its retries are stopped on close as an adapted one's are.
    func request(_ request: Request, didFailToAdaptURLRequest initialRequest: URLRequest, withError error: AFError) {
        track(request)
    }

    /// Keeps an admitted `request`, whose retries a close stops; stops them now if closed.
    private func track(_ request: Request) {
        let closed = state.withLock { gate -> Bool in
            guard gate.admitted.contains(request.id) else { return false }
            if !gate.closed { gate.requests[request.id] = request }
            return gate.closed
        }
        if closed { request.stopRetrying(because: SessionServiceShuttingDown()) }
    }

    func requestDidFinish(_ request: Request) {
        let waiters = state.withLock { gate -> [@Sendable () -> Void] in
            gate.admitted.remove(request.id)
            gate.requests.removeValue(forKey: request.id)
            guard gate.closed, gate.admitted.isEmpty else { return [] }
            defer { gate.idleWaiters = [] }
            return gate.idleWaiters
        }
        waiters.forEach { $0() }
    }

    /// Refuses new requests from now on, and stops the retries of those admitted.
    func close() {
        let admitted = state.withLock { gate -> [Request] in
            gate.closed = true
            defer { gate.requests = [:] }
            return Array(gate.requests.values)
        }
        admitted.forEach { $0.stopRetrying(because: SessionServiceShuttingDown()) }
    }

    /// Waits until no admitted request is left, or `timeout` passed; whether none is left.
    func waitUntilIdle(timeout: Duration) async -> Bool {
        // Idle now is the answer; else the first of the timeout and the last request's end,
        // even a timeout that ends before the wait has begun.
        let outcome = Locked(WaitOutcome())
        let resume: @Sendable (Bool) -> Void = { idle in
            outcome.withLock { $0.answer(idle) }?.resume(returning: idle)
        }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            resume(false)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let idleNow = state.withLock { gate -> Bool in
                guard !gate.admitted.isEmpty else { return true }
                gate.idleWaiters.append { resume(true) }
                return false
            }
            if idleNow { return continuation.resume(returning: true) }
            if let answer = outcome.withLock({ $0.wait(continuation) }) { continuation.resume(returning: answer) }
        }
    }

    /// A wait for idleness and its first answer.
    private struct WaitOutcome {
        private var continuation: CheckedContinuation<Bool, Never>?
        private var answered: Bool?

        /// Records the first answer; the continuation to resume with it, if the wait has begun.
        mutating func answer(_ idle: Bool) -> CheckedContinuation<Bool, Never>? {
            guard answered == nil else { return nil }
            answered = idle
            defer { continuation = nil }
            return continuation
        }

        /// Begins the wait: the answer already given, if any, else nil and the continuation kept.
        mutating func wait(_ continuation: CheckedContinuation<Bool, Never>) -> Bool? {
            if let answered { return answered }
            self.continuation = continuation
            return nil
        }
    }
}
