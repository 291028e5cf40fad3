import Dispatch

/// Tells which queue a closure runs on, by a key set on the queue.
final class QueueMarker: Sendable {
    private static let key = DispatchSpecificKey<String>()
    let name: String

    init(_ queue: DispatchQueue, name: String) {
        self.name = name
        queue.setSpecific(key: Self.key, value: name)
    }

    /// Whether the caller runs on the marked queue.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.key) == name }

    static let main = QueueMarker(.main, name: "main")
}
