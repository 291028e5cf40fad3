import Dispatch

/// The events on their way to one event monitor, handed to it on its queue in runs, in the
/// order they were sent (see `RunDelivery`): a run of events wakes the monitor's queue once.
final class MonitorMailbox: Sendable {
    /// A struct, not a bare closure: see `StoredClosure`.
    private struct Event: Sendable {
        let deliver: @Sendable (any EventMonitor) -> Void
        let kind: MonitoredEvent?
    }

    let monitor: any EventMonitor
    private let events: RunDelivery<Event>

    init(for monitor: any EventMonitor) {
        self.monitor = monitor
        let closures = MonitoredEvent.closures(of: monitor)
        events = RunDelivery(on: monitor.queue) { events in
            for event in events where !event.kind.isSkipped(by: closures) { event.deliver(monitor) }
        }
    }

    /// Queues `event` (of `kind`, when it is one of the events a closure monitor may not hear)
    /// for the monitor.
    func send(_ event: @escaping @Sendable (any EventMonitor) -> Void, as kind: MonitoredEvent? = nil) {
        events.send(Event(deliver: event, kind: kind))
    }
}
