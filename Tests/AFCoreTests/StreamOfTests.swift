@testable import AFCore
import AFTestSupport
import Testing

/// StreamOf: elements the consumer never takes stop holding back what fed them.
@Suite struct StreamOfTests {
    /// Counts the elements that no longer hold anything back.
    private final class Takes: Sendable {
        let count = Protected(0)
        let call: @Sendable () -> Void
        init() {
            let count = count
            call = { count.withLock { $0 += 1 } }
        }
    }

    /// Feeds and drops a sequence whose consumer takes one element then stops; `whileEnding`
    /// runs while the sequence ends (its termination handler), with the feed.
    private func consumeOneThenStop(_ takes: Takes, whileEnding: @escaping @Sendable (StreamOf<Int>.Feed) -> Void) async {
        let feed = Protected<StreamOf<Int>.Feed?>(nil)
        let sequence = StreamOf<Int>(onTermination: { feed.value.map(whileEnding) }) { fed in
            feed.withLock { $0 = fed }
            fed.yield(1, onTaken: takes.call)
            fed.yield(2, onTaken: takes.call)
        }
        var iterator = sequence.makeAsyncIterator()
        #expect(await iterator.next() == 1)
    }

    @Test func elementsLeftInTheBufferCountAsTakenWhenTheConsumerStops() async {
        let takes = Takes()
        await consumeOneThenStop(takes) { _ in }
        #expect(takes.count.value == 2)
    }

    /// AsyncStream runs the termination handler before it refuses elements: one fed in between
    /// is buffered for no one. It must count as taken at once, or a paused transfer waits for
    /// it forever (a test of a stream request hung this way under load).
    @Test func anElementFedWhileTheSequenceEndsCountsAsTaken() async {
        let takes = Takes()
        await consumeOneThenStop(takes) { feed in feed.yield(3, onTaken: takes.call) }
        #expect(takes.count.value == 3)
    }
}
