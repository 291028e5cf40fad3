import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An exchange that found no network path, waiting for the host's network to change.
struct ConnectivityWait {
    let request: URLRequest
    let failure: CurlFailure
}

// `waitsForConnectivity`: an exchange that found no usable network path is sent again at the
// host's next network change, until the configuration's resource timeout (counted from the
// task's start); the delegate hears the first wait. On the task's queue.
extension SessionTask {
    /// Whether `failure` (no network path) makes the task wait rather than fail.
    func waitsForConnectivity(after failure: CurlFailure) -> Bool {
        guard configuration.waitsForConnectivity, failure.localError?.code == .notConnectedToInternet,
              delegate?.mayWaitForConnectivity == true else { return false }
        return Date().timeIntervalSince(startDate) < configuration.resourceTimeout
    }

    /// Waits for a network change after the one the failed exchange started with.
    func waitForConnectivity(_ request: URLRequest, failure: CurlFailure, since generation: UInt64) {
        let wait = ConnectivityWait(request: request, failure: failure)
        let first = mutableState.withLock { state -> Bool? in
            guard state.state == .running || state.state == .suspended else { return nil }
            state.connectivityWait = wait
            defer { state.hasWaitedForConnectivity = true }
            return !state.hasWaitedForConnectivity
        }
        guard let first else {
            let error = URLError(.cancelled, userInfo: [NSURLErrorFailingURLErrorKey: request.url as Any])
            return finish(request: request, response: nil, data: Data(), error: error)
        }
        if first {
            delegate?.taskIsWaitingForConnectivity(self)
            let remaining = configuration.resourceTimeout - Date().timeIntervalSince(startDate)
            queue.asyncAfter(deadline: .now() + max(0, min(remaining, 86_400 * 365))) { [weak self] in
                self?.connectivityWaitTimedOut()
            }
        }
        engine.awaitNetworkChange(since: generation) { self.queue.async { self.networkChanged() } }
        // Retries stopped meanwhile (their stop looks for a wait only after it is set): no wait.
        if delegate?.mayWaitForConnectivity != true { endConnectivityWait() }
    }

    /// The network changed: the waiting exchange goes out again.
    private func networkChanged() {
        guard let wait = mutableState.withLock({ $0.connectivityWait.take() }) else { return }
        startHop(wait.request, after: wait.request, response: nil, body: Data())
    }

    /// The resource timeout passed: a task still waiting fails as it would have without waiting.
    private func connectivityWaitTimedOut() {
        endConnectivityWait()
    }

    /// Ends a wait for connectivity, if the task is waiting: it fails as it would have without
    /// waiting. Callable from any queue.
    func endConnectivityWait() {
        guard let wait = mutableState.withLock({ $0.connectivityWait.take() }) else { return }
        queue.runOrAsync(recording: handOffs) { self.endConnectivityWait(wait, cancelled: false) }
    }

    /// Ends the task that waited: cancelled, or with the failure that made it wait.
    func endConnectivityWait(_ wait: ConnectivityWait, cancelled: Bool) {
        let url = wait.request.url
        let error: any Error = cancelled
            ? URLError(.cancelled, userInfo: [NSURLErrorFailingURLErrorKey: url as Any])
            : wait.failure.urlError(failingURL: url)
        finish(request: wait.request, response: nil, data: Data(), error: error)
    }
}
