import Dispatch

/// The events on their way to one event monitor, handed to it on its queue in runs, in the
/// order they were sent (see `RunDelivery`): a run of events wakes the monitor's queue once.
final class MonitorMailbox: Sendable {
    typealias Deliver = @Sendable (any EventMonitor) -> Void

    /// A struct, not a bare closure: see `StoredClosure`.
    private struct Event: Sendable {
        let deliver: Deliver
        let kind: MonitoredEvent?
    }

    let monitor: any EventMonitor
    /// The monitor, when its closures tell which events it hears (see `MonitoredEvent`).
    private let closures: ClosureEventMonitor?
    private let events: RunDelivery<Event>

    init(for monitor: any EventMonitor) {
        self.monitor = monitor
        let closures = MonitoredEvent.closures(of: monitor)
        self.closures = closures
        events = RunDelivery(on: monitor.queue) { events in
            for event in events where !event.kind.isSkipped(by: closures) { event.deliver(monitor) }
        }
    }

    /// Queues `event` (of `kind`, when it has one) for the monitor.
    func send(_ event: @escaping Deliver, as kind: MonitoredEvent? = nil) {
        events.send(Event(deliver: event, kind: kind))
    }

    /// Queues `event`, of `kind`, unless the monitor would not hear it and nothing is waiting
    /// for the monitor or being handed to it (see `MonitoredEvent`). Returns whether it was
    /// queued.
    @discardableResult
    func offer(_ event: @escaping Deliver, as kind: MonitoredEvent) -> Bool {
        let closures = closures
        return events.send(Event(deliver: event, kind: kind), unlessIdleAnd: { Optional(kind).isSkipped(by: closures) })
    }

    /// Whether the monitor would take an event of `kind` if it were offered now: false only
    /// when `offer` would drop it.
    func mayTake(_ kind: MonitoredEvent) -> Bool {
        let closures = closures
        return events.isIdle(and: { Optional(kind).isSkipped(by: closures) }) == false
    }
}
