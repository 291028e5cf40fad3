import Dispatch

/// The key under which a marked queue stores its own identity.
private let queueIdentityKey = DispatchSpecificKey<ObjectIdentifier>()

extension DispatchQueue {
    /// Marks the queue, so that `isCurrent` can tell when code runs on it.
    func markForCurrentCheck() {
        setSpecific(key: queueIdentityKey, value: ObjectIdentifier(self))
    }

    /// Whether the calling code runs on this (marked) queue or on a queue behind it, where
    /// nothing else of the queue can run at the same time.
    var isCurrent: Bool {
        DispatchQueue.getSpecific(key: queueIdentityKey) == ObjectIdentifier(self)
    }

    /// Runs `work` now when the caller is already on this queue, else queues it. For work whose
    /// only need is to run on the queue, not after what the queue already holds.
    func runOrAsync(_ work: @escaping @Sendable () -> Void) {
        if isCurrent { work() } else { async(execute: work) }
    }
}
