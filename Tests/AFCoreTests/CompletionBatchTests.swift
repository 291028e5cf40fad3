@testable import AFCore
import Dispatch
import Testing

/// The engine queues the completions of one pass together: one trip per run of completions
/// bound for the same queue, each queue getting its own in the order they were added.
struct CompletionBatchTests {
    @Test func eachQueueGetsItsCompletionsInOrderOneTripPerRun() {
        let first = DispatchQueue(label: "test.batch.first")
        let second = DispatchQueue(label: "test.batch.second")
        let ran = Protected<[String]>([])
        let group = DispatchGroup()
        var batch = CompletionBatch()
        for (queue, name) in [(first, "a1"), (first, "a2"), (first, "a3"), (second, "b1"), (first, "a4")] {
            group.enter()
            batch.add(on: queue) {
                ran.withLock { $0.append(name) }
                group.leave()
            }
        }
        #expect(!batch.isEmpty)
        #expect(batch.send() == 3)
        #expect(batch.isEmpty)
        group.wait()
        let order = ran.value
        #expect(order.filter { $0.hasPrefix("a") } == ["a1", "a2", "a3", "a4"])
        #expect(order.contains("b1"))
        #expect(order.count == 5)
    }

    @Test func anEmptyBatchQueuesNothing() {
        var batch = CompletionBatch()
        #expect(batch.send() == 0)
    }
}
