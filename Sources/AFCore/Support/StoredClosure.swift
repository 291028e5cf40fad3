/// A closure kept as an element of a collection. Held in a struct, it goes in and out of an
/// array (or any generic container) as written; held bare (`[() -> Void]`, a tuple in an array,
/// an optional passed through `Optional`'s generic members) it goes through a thunk made for
/// it, an allocation each way.
struct StoredClosure: Sendable {
    let run: @Sendable () -> Void

    init(_ run: @escaping @Sendable () -> Void) {
        self.run = run
    }
}
