import Dispatch
import Synchronization

/// The events on their way to one event monitor, delivered in the order they were sent, on the
/// monitor's queue. An event that finds none waiting schedules one pass of that queue, which
/// delivers every event that arrived by then: a run of events costs the monitor's queue one
/// wake-up rather than one each. Events keep their order on a serial queue; on a concurrent one
/// passes may overlap.
///
/// An event is on the queue before anything its sender queues there afterwards, as with an
/// `async` per event: a sender whose event joins a run checks that the run's pass was queued
/// already, and queues one itself if its first sender has not got that far (a pass that finds
/// nothing waiting delivers nothing). The pass is queued outside the lock: queued under it, the
/// worker it woke could find the lock still held.
final class MonitorMailbox: Sendable {
    /// A struct, not a bare closure: see `StoredClosure`.
    private struct Event: Sendable {
        let deliver: @Sendable (any EventMonitor) -> Void
    }

    private struct Waiting {
        /// Events not delivered yet, oldest first.
        var events: [Event] = []
        /// The emptied list of the last pass, kept with its storage for the next one.
        var spare: [Event] = []
        /// The number of the last run: each event that finds none waiting starts one.
        var run = 0
    }

    let monitor: any EventMonitor
    private let waiting = Protected(Waiting())
    /// The highest run whose pass has been queued.
    private let queuedRun = Atomic<Int>(0)
    /// The most events a kept list may have room for: a burst does not hold its storage for good.
    private static let spareCapacity = 1024

    init(for monitor: any EventMonitor) {
        self.monitor = monitor
    }

    /// Queues `event` for the monitor.
    func send(_ event: @escaping @Sendable (any EventMonitor) -> Void) {
        let (run, startsRun) = waiting.withLock { waiting in
            if waiting.events.isEmpty { waiting.run += 1 }
            waiting.events.append(Event(deliver: event))
            return (waiting.run, waiting.events.count == 1)
        }
        // A run's pass takes every event sent before it runs, so once a pass for this run (or a
        // later one, which exists only after this run was taken) is queued, this event is covered.
        guard startsRun || queuedRun.load(ordering: .acquiring) < run else { return }
        monitor.queue.async { self.deliverWaiting() }
        var queued = queuedRun.load(ordering: .relaxed)
        while queued < run {
            let (exchanged, current) = queuedRun.compareExchange(expected: queued, desired: run,
                                                                 ordering: .releasing)
            if exchanged { break }
            queued = current
        }
    }

    private func deliverWaiting() {
        var events = waiting.withLock { waiting in
            defer { waiting.events = waiting.spare; waiting.spare = [] }
            return waiting.events
        }
        for event in events { event.deliver(monitor) }
        events.removeAll(keepingCapacity: events.capacity <= Self.spareCapacity)
        waiting.withLock { waiting in waiting.spare = events }
    }
}
