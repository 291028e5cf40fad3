/// A request's list of closures (validators, serializers): a `SmallList` of `StoredClosure`s,
/// so the first is held inline and each is stored as written. A closure kept bare in a generic
/// container (`SmallList<() -> Void>`, `[() -> Void]`) goes in and out through a thunk made for
/// it, an allocation each way.
struct ClosureList: Sendable {
    private var entries = SmallList<StoredClosure>()

    init() {}

    var isEmpty: Bool { entries.isEmpty }

    var count: Int { entries.count }

    mutating func append(_ closure: @escaping @Sendable () -> Void) {
        entries.append(StoredClosure(closure))
    }

    mutating func removeAll() {
        entries.removeAll()
    }

    subscript(position: Int) -> @Sendable () -> Void { entries[position].run }

    /// Calls each closure, in order.
    func runAll() {
        for entry in entries { entry.run() }
    }
}
