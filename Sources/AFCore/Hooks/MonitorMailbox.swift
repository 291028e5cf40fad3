import Dispatch

/// The events on their way to one event monitor, delivered in the order they were sent, on the
/// monitor's queue. An event that finds none waiting schedules one pass of that queue, which
/// delivers every event that arrived by then: a run of events costs the monitor's queue one
/// wake-up rather than one each. The pass is queued before the sender lets go of the list, so an
/// event is on the queue before anything its sender queues there afterwards, as with an `async`
/// per event. Events keep their order on a serial queue; on a concurrent one passes may overlap.
final class MonitorMailbox: Sendable {
    /// A struct, not a bare closure: see `StoredClosure`.
    private struct Event: Sendable {
        let deliver: @Sendable (any EventMonitor) -> Void
    }

    let monitor: any EventMonitor
    /// Events not delivered yet, oldest first, and the emptied list of the last pass, kept with
    /// its storage for the next one.
    private let waiting = Protected<(events: [Event], spare: [Event])>(([], []))
    /// The most events a kept list may have room for: a burst does not hold its storage for good.
    private static let spareCapacity = 1024

    init(for monitor: any EventMonitor) {
        self.monitor = monitor
    }

    /// Queues `event` for the monitor.
    func send(_ event: @escaping @Sendable (any EventMonitor) -> Void) {
        waiting.withLock { lists in
            // Queued under the lock: a sender finding the list not empty knows its pass is queued.
            if lists.events.isEmpty { monitor.queue.async { self.deliverWaiting() } }
            lists.events.append(Event(deliver: event))
        }
    }

    private func deliverWaiting() {
        var events = waiting.withLock { lists in
            defer { lists.events = lists.spare; lists.spare = [] }
            return lists.events
        }
        for event in events { event.deliver(monitor) }
        events.removeAll(keepingCapacity: events.capacity <= Self.spareCapacity)
        waiting.withLock { lists in lists.spare = events }
    }
}
