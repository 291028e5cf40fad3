import Dispatch

/// The serial queues of requests that run on one of their own rather than on `rootQueue` (see
/// `Session.queues(forRequestWith:)`). A queue goes back here when its request is gone and is
/// handed to the next: making a queue marked for `isCurrent` per request and releasing it
/// (libdispatch disposes of its marks on a worker it wakes) cost more than the trip it saves.
final class RequestQueues: Sendable {
    /// How many queues are kept for reuse; a session gives requests queues of their own only
    /// while fewer than this many are active.
    static let capacity = 128
    private let spares = Protected<[DispatchQueue]>([])

    /// A queue no request uses.
    func take() -> DispatchQueue {
        if let spare = spares.withLock({ $0.popLast() }) { return spare }
        let made = DispatchQueue(label: "org.alamofire.request")
        made.markForCurrentCheck()
        return made
    }

    /// Keeps the queue of a request that is gone: nothing of that request's runs on it any more
    /// (its task ended, or never started).
    func keep(_ queue: DispatchQueue) {
        spares.withLock { spares in
            if spares.count < Self.capacity { spares.append(queue) }
        }
    }
}
