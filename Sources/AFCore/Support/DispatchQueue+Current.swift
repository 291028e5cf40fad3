import Dispatch

/// The key under which a marked queue stores its own identity.
private let queueIdentityKey = DispatchSpecificKey<ObjectIdentifier>()
/// The key under which a queue made to run behind a marked queue stores that queue's identity.
private let ownerIdentityKey = DispatchSpecificKey<ObjectIdentifier>()

/// The key under which the main queue carries a mark, set on first use.
private let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

extension DispatchQueue {
    /// Whether this is the main queue. On Linux each `DispatchQueue.main` is a new object, so
    /// `===` cannot tell it, and reading a queue's label makes a new String each time: the main
    /// queue carries a mark of its own instead.
    var isMain: Bool { getSpecific(key: mainQueueKey) ?? false }

    /// Marks the queue, so that `isCurrent` can tell when code runs on it.
    func markForCurrentCheck() {
        setSpecific(key: queueIdentityKey, value: ObjectIdentifier(self))
    }

    /// Whether the calling code runs on this (marked) queue or on a queue behind it, where
    /// nothing else of the queue can run at the same time.
    var isCurrent: Bool {
        DispatchQueue.getSpecific(key: queueIdentityKey) == ObjectIdentifier(self)
    }

    /// Marks this queue, which targets the marked serial `owner`, as one whose work may run
    /// directly on `owner` (see `runBehindOrAsync(recording:_:)`); returns it.
    func runningBehind(_ owner: DispatchQueue) -> DispatchQueue {
        setSpecific(key: ownerIdentityKey, value: ObjectIdentifier(owner))
        return self
    }

    /// Whether this queue was marked as running behind another (one of a session's own).
    var runsBehindAnotherQueue: Bool { getSpecific(key: ownerIdentityKey) != nil }

    /// Whether this queue was marked as running behind the queue the caller is on (the same
    /// serial order, so queueing work for it would only cost a trip through the queue).
    var runsBehindCurrentQueue: Bool {
        guard let owner = getSpecific(key: ownerIdentityKey) else { return false }
        return DispatchQueue.getSpecific(key: queueIdentityKey) == owner
    }
}
