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

    /// Runs `work` now when this queue runs behind the queue the caller is on, else queues
    /// it, counting the trip (`work` evaluated where it runs, as in `runOrAsync`).
    @inline(__always)
    func runBehindOrAsync(recording handOffs: HandOffs, _ work: @autoclosure () -> @Sendable () -> Void) {
        if runsBehindCurrentQueue { work()() } else { async(recording: handOffs, execute: work()) }
    }
}

extension Optional where Wrapped == DispatchQueue {
    /// Queues `work` on the queue, counting the trip; with none, runs it now (a handler that
    /// only resumes an awaiting task), its closure made only where it runs.
    @inline(__always)
    func asyncOrNow(recording handOffs: HandOffs, _ work: @autoclosure () -> @Sendable () -> Void) {
        if let queue = self { queue.async(recording: handOffs, execute: work()) } else { work()() }
    }
}
