/// An async sequence of a request's events, iterated once. Elements the consumer has not taken
/// yet hold back the transfer they came from (for streamed bodies), so a slow loop pauses it.
public struct StreamOf<Element: Sendable>: AsyncSequence, Sendable {
    public typealias AsyncIterator = Iterator
    /// How many elements wait for the consumer, and which are dropped beyond that.
    public typealias BufferingPolicy = AsyncStream<Element>.Continuation.BufferingPolicy

    /// An element and the key of what to call once the consumer took it.
    struct Item: Sendable {
        var element: Element
        var taken: PendingTakes.Key?
    }

    /// Feeds the sequence; elements dropped by the buffering policy count as taken, and so do
    /// those still buffered when the consumer stops.
    struct Feed: Sendable {
        fileprivate let continuation: AsyncStream<Item>.Continuation
        fileprivate let pending: PendingTakes

        func yield(_ element: Element, onTaken taken: (@Sendable () -> Void)? = nil) {
            switch continuation.yield(Item(element: element, taken: taken.flatMap(pending.add))) {
            case let .dropped(item): item.taken.map(pending.take)
            case .terminated: pending.close()
            case .enqueued: break
            @unknown default: break
            }
        }

        func finish() { continuation.finish() }
    }

    private let items: AsyncStream<Item>
    private let pending: PendingTakes

    /// `onTermination` runs if the consumer stops before the end.
    init(bufferingPolicy: BufferingPolicy = .unbounded, onTermination: (@Sendable () -> Void)? = nil,
         builder: (Feed) -> Void) {
        let policy: AsyncStream<Item>.Continuation.BufferingPolicy = switch bufferingPolicy {
        case .unbounded: .unbounded
        case let .bufferingOldest(count): .bufferingOldest(count)
        case let .bufferingNewest(count): .bufferingNewest(count)
        @unknown default: .unbounded
        }
        let (stream, continuation) = AsyncStream<Item>.makeStream(bufferingPolicy: policy)
        let pending = PendingTakes()
        // Called when the consumer stops early (its task cancelled, the sequence dropped): the
        // elements it will never take no longer hold the transfer back. The stream calls this
        // before it refuses elements, so those yielded meanwhile are caught by `close()`.
        continuation.onTermination = { termination in
            guard case .cancelled = termination else { return }
            pending.close()
            onTermination?()
        }
        items = stream
        self.pending = pending
        builder(Feed(continuation: continuation, pending: pending))
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(base: items.makeAsyncIterator(), pending: pending)
    }

    /// Takes the elements one by one.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate var base: AsyncStream<Item>.AsyncIterator
        fileprivate let pending: PendingTakes

        public mutating func next() async -> Element? {
            guard let item = await base.next() else { return nil }
            item.taken.map(pending.take)
            return item.element
        }
    }
}

/// What to call as a sequence's buffered elements are taken, by key; each call is made once,
/// whether the consumer takes the element, the buffer drops it, or the sequence ends first.
/// Once closed (the consumer gone), a call added is made at once, not kept.
final class PendingTakes: Sendable {
    typealias Key = UInt64
    private struct State {
        var nextKey: Key = 0
        var calls: [Key: @Sendable () -> Void] = [:]
        var isClosed = false
    }

    private let state = Protected(State())

    /// Keeps `call` under a new key; once closed, makes it and returns nil.
    func add(_ call: @escaping @Sendable () -> Void) -> Key? {
        let key = state.withLock { state -> Key? in
            guard !state.isClosed else { return nil }
            defer { state.nextKey &+= 1 }
            state.calls[state.nextKey] = call
            return state.nextKey
        }
        if key == nil { call() }
        return key
    }

    func take(_ key: Key) {
        state.withLock { $0.calls.removeValue(forKey: key) }?()
    }

    /// Makes every call kept, and keeps none added later.
    func close() {
        let calls = state.withLock { state in
            defer { state.calls.removeAll() }
            state.isClosed = true
            return state.calls.sorted { $0.key < $1.key }.map(\.value)
        }
        calls.forEach { $0() }
    }
}
