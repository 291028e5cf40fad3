/// A list of closures that holds its first inline, as `SmallList` does, and stores each closure
/// as written. A closure kept in a generic container (`SmallList<() -> Void>`, `[() -> Void]`)
/// goes in and out through a thunk made for it, an allocation each way; a request keeps several
/// (validators, serializers).
struct ClosureList: Sendable {
    // `head` is only ever matched, never compared or unwrapped through `Optional`'s generic
    // members, which would take the closure through a thunk too.
    private var head: (@Sendable () -> Void)?
    private var tail: [StoredClosure] = []

    init() {}

    var isEmpty: Bool {
        if case .none = head { return true }
        return false
    }

    var count: Int { isEmpty ? 0 : 1 + tail.count }

    mutating func append(_ closure: @escaping @Sendable () -> Void) {
        if isEmpty { head = closure } else { tail.append(StoredClosure(closure)) }
    }

    mutating func removeAll() {
        head = nil
        tail = []
    }

    subscript(position: Int) -> @Sendable () -> Void {
        precondition(position >= 0 && position < count, "ClosureList index out of range")
        if position == 0, case let .some(first) = head { return first }
        return tail[position - 1].run
    }

    /// Calls each closure, in order.
    func runAll() {
        guard let head else { return }
        head()
        for entry in tail { entry.run() }
    }
}
