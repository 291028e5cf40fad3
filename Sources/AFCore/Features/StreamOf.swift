/// An async sequence of a request's events, iterated once. Elements the consumer has not taken
/// yet hold back the transfer they came from (for streamed bodies), so a slow loop pauses it.
public struct StreamOf<Element: Sendable>: AsyncSequence, Sendable {
    public typealias AsyncIterator = Iterator
    /// How many elements wait for the consumer, and which are dropped beyond that.
    public typealias BufferingPolicy = AsyncStream<Element>.Continuation.BufferingPolicy

    /// An element and what to call once the consumer took it.
    struct Item: Sendable {
        var element: Element
        var taken: (@Sendable () -> Void)?
    }

    /// Feeds the sequence; elements dropped by the buffering policy count as taken.
    struct Feed: Sendable {
        fileprivate let continuation: AsyncStream<Item>.Continuation

        func yield(_ element: Element, onTaken taken: (@Sendable () -> Void)? = nil) {
            switch continuation.yield(Item(element: element, taken: taken)) {
            case let .dropped(item): item.taken?()
            case .terminated: taken?()
            case .enqueued: break
            @unknown default: break
            }
        }

        func finish() { continuation.finish() }
    }

    private let items: AsyncStream<Item>

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
        // Called when the consumer stops early (its task cancelled, the sequence dropped).
        continuation.onTermination = { termination in
            if case .cancelled = termination { onTermination?() }
        }
        items = stream
        builder(Feed(continuation: continuation))
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(base: items.makeAsyncIterator())
    }

    /// Takes the elements one by one.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate var base: AsyncStream<Item>.AsyncIterator

        public mutating func next() async -> Element? {
            guard let item = await base.next() else { return nil }
            item.taken?()
            return item.element
        }
    }
}
