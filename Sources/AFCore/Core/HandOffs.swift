import Dispatch
import Synchronization

/// How many times a request's work was queued for another thread (a dispatch queue, the
/// engine, a waiting task) between the call and the completion handler. Tests hold each path
/// to the trips its contract requires; counting costs one atomic add per trip.
final class HandOffs: Sendable {
    private let count = Atomic<Int>(0)

    /// The trips so far.
    var value: Int { count.load(ordering: .relaxed) }

    /// Counts one trip.
    func record() { count.add(1, ordering: .relaxed) }
}

extension DispatchQueue {
    /// Queues `work`, counting the trip.
    func async(recording handOffs: HandOffs, execute work: @escaping @Sendable () -> Void) {
        handOffs.record()
        async(execute: work)
    }

    /// Runs `work` now when the caller is already on this queue, else queues it, counting the
    /// trip. For work whose only need is to run on the queue, not after what the queue already
    /// holds. `work` is evaluated where it runs: run now, its closure needs no allocation.
    @inline(__always)
    func runOrAsync(recording handOffs: HandOffs, _ work: @autoclosure () -> @Sendable () -> Void) {
        if isCurrent { work()() } else { async(recording: handOffs, execute: work()) }
    }

    /// Runs `work` now when the caller is on this queue or on the one it runs behind, else
    /// queues it, counting the trip (`work` evaluated where it runs, as in `runOrAsync`).
    @inline(__always)
    func runBehindOrAsync(recording handOffs: HandOffs, _ work: @autoclosure () -> @Sendable () -> Void) {
        if runsBehindCurrentQueue || isCurrent { work()() } else { async(recording: handOffs, execute: work()) }
    }

    /// Runs `work` on this queue from the calling thread: now when the caller is already on it,
    /// else once the queue is free, waiting for it. No trip: for a queue of one request's own,
    /// which only that request's work ever holds, and briefly.
    @inline(__always)
    func runOrSync(_ work: () -> Void) {
        if isCurrent { work() } else { sync(execute: work) }
    }

    /// Queues a response handler's call, counting the trip; when the calling thread runs a
    /// request's completion on this very queue (see `DeferredResumptions`), holds it instead
    /// until the completion has left the request's queue, and the call costs no trip.
    func deliver(recording handOffs: HandOffs, _ work: @escaping @Sendable () -> Void) {
        if let collection = DeferredResumptions.current, collection.holds(self) {
            collection.hold(work)
        } else {
            async(recording: handOffs, execute: work)
        }
    }
}

extension Optional where Wrapped == DispatchQueue {
    /// Delivers a handler's call on the queue (see `deliver(recording:_:)`); with none, runs it
    /// now (a handler that only resumes an awaiting task), its closure made only where it runs.
    @inline(__always)
    func asyncOrNow(recording handOffs: HandOffs, _ work: @autoclosure () -> @Sendable () -> Void) {
        if let queue = self { queue.deliver(recording: handOffs, work()) } else { work()() }
    }
}
