import Dispatch
import Synchronization

/// Items handed over on one queue in runs, in the order they were sent. An item that finds none
/// waiting schedules one pass of the queue, which takes every item that arrived by then: a run
/// of items costs the queue one wake-up rather than one each. Runs keep their order on a serial
/// queue; on a concurrent one passes may overlap.
///
/// An item is on the queue before anything its sender queues there afterwards, as with an
/// `async` per item: a sender whose item joins a run checks that the run's pass was queued
/// already, and queues one itself if the run's first sender has not got that far (a pass that
/// finds nothing waiting hands over nothing). The pass is queued outside the lock: queued under
/// it, the worker it woke could find the lock still held.
final class RunDelivery<Item: Sendable>: Sendable {
    private struct Waiting {
        /// Items not handed over yet, oldest first.
        var items: [Item] = []
        /// The emptied list of the last pass, kept with its storage for the next one.
        var spare: [Item] = []
        /// The number of the last run: each item that finds none waiting starts one.
        var run = 0
    }

    private let queue: DispatchQueue
    private let deliver: @Sendable ([Item]) -> Void
    private let waiting = Protected(Waiting())
    /// The highest run whose pass has been queued.
    private let queuedRun = Atomic<Int>(0)

    /// Hands each pass's items, in order, to `deliver`, on `queue`.
    init(on queue: DispatchQueue, deliver: @escaping @Sendable ([Item]) -> Void) {
        self.queue = queue
        self.deliver = deliver
    }

    /// Adds `item` to the run under way, or starts one.
    func send(_ item: Item) {
        let (run, startsRun) = waiting.withLock { waiting in
            if waiting.items.isEmpty { waiting.run += 1 }
            waiting.items.append(item)
            return (waiting.run, waiting.items.count == 1)
        }
        // A run's pass takes every item sent before it runs, so once a pass for this run (or a
        // later one, which exists only after this run was taken) is queued, this item is covered.
        guard startsRun || queuedRun.load(ordering: .acquiring) < run else { return }
        queue.async { self.deliverWaiting() }
        var queued = queuedRun.load(ordering: .relaxed)
        while queued < run {
            let (exchanged, current) = queuedRun.compareExchange(expected: queued, desired: run,
                                                                 ordering: .releasing)
            if exchanged { break }
            queued = current
        }
    }

    private func deliverWaiting() {
        var items = waiting.withLock { waiting in
            defer { waiting.items = waiting.spare; waiting.spare = [] }
            return waiting.items
        }
        deliver(items)
        // Kept for the next pass unless a burst made it large.
        items.removeAll(keepingCapacity: items.capacity <= 1024)
        waiting.withLock { waiting in waiting.spare = items }
    }
}
