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

    /// Queues `event` for the monitor, which gets it whatever it is.
    func send(_ event: @escaping Deliver) {
        events.send(Event(deliver: event, kind: nil))
    }

    /// Queues `event`, of `kind`, unless the monitor can never hear it (see `MonitoredEvent`).
    /// Returns whether it was queued.
    @discardableResult
    func offer(_ event: @escaping Deliver, as kind: MonitoredEvent) -> Bool {
        guard mayTake(kind) else { return false }
        events.send(Event(deliver: event, kind: kind))
        return true
    }

    /// Whether `offer` would queue an event of `kind`: false only for one the monitor can never
    /// hear.
    func mayTake(_ kind: MonitoredEvent) -> Bool {
        closures == nil || kind != .withoutClosure
    }
}
