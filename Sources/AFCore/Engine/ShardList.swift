/// The engine's multi handles, in the order they are offered new transfers, at most `capacity`.
/// The list retains each one once, for as long as it holds it, and lends them out without
/// reference counting: the engine thread goes over them several times a pass, and an array's
/// retains and releases of its storage and of each handle cost more there than the work done.
/// Like the rest of the engine's state, only the holder of the engine's lock uses it.
struct ShardList: ~Copyable {
    private let slots: UnsafeMutablePointer<Unmanaged<CurlShard>>
    /// How many the list holds.
    private(set) var count = 0
    /// The most it can hold.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        slots = .allocate(capacity: self.capacity)
    }

    deinit {
        releaseHeld()
        slots.deallocate()
    }

    /// Adds `shard` at the end.
    mutating func append(_ shard: CurlShard) {
        precondition(count < capacity, "more multi handles than the engine's limit")
        (slots + count).initialize(to: .passRetained(shard))
        count += 1
    }

    /// The result of `body` given the multi handle at `index`, lent for the call.
    @inline(__always)
    func with<Result>(_ index: Int, _ body: (CurlShard) throws -> Result) rethrows -> Result {
        precondition(index >= 0 && index < count, "no multi handle at this index")
        return try slots[index]._withUnsafeGuaranteedRef(body)
    }

    /// Calls `body` with each multi handle the list holds as the call starts, in order.
    @inline(__always)
    func forEach(_ body: (CurlShard) throws -> Void) rethrows {
        for index in 0..<count { try slots[index]._withUnsafeGuaranteedRef(body) }
    }

    /// The multi handle at `index`, for the caller to keep.
    func shard(at index: Int) -> CurlShard {
        precondition(index >= 0 && index < count, "no multi handle at this index")
        return slots[index].takeUnretainedValue()
    }

    /// Lets every multi handle go; the list is empty afterwards.
    mutating func removeAll() {
        releaseHeld()
        count = 0
    }

    /// Releases the list's retain of each multi handle it holds (the slots still name them).
    private func releaseHeld() {
        for index in 0..<count { slots[index].release() }
    }
}
