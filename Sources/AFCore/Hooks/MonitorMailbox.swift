import Dispatch

/// The events on their way to one event monitor, handed to it on its queue in runs, in the
/// order they were sent (see `RunDelivery`): a run of events wakes the monitor's queue once.
final class MonitorMailbox: Sendable {
    /// A struct, not a bare closure: see `StoredClosure`.
    private struct Event: Sendable {
        let deliver: @Sendable (any EventMonitor) -> Void
    }

    let monitor: any EventMonitor
    private let events: RunDelivery<Event>

    init(for monitor: any EventMonitor) {
        self.monitor = monitor
        events = RunDelivery(on: monitor.queue) { events in
            for event in events { event.deliver(monitor) }
        }
    }

    /// Queues `event` for the monitor.
    func send(_ event: @escaping @Sendable (any EventMonitor) -> Void) {
        events.send(Event(deliver: event))
    }
}
