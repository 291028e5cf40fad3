@testable import AFCore
import Testing

/// A response awaited by several tasks reaches each of them: those waiting when it is delivered
/// (the first one is kept apart from the others) and those that come later.
@Suite(.timeLimit(.minutes(1))) struct AwaitedResponseTests {
    @Test func everyWaiterBeforeAndAfterTheDeliveryGetsTheResponse() async {
        let awaited = AwaitedResponse<Int>()
        let early = (0..<3).map { _ in Task { await awaited.value } }
        // Delivered only once all three wait, so both kinds of waiter are resumed by it.
        while awaited.waiterCount < 3 { await Task.yield() }
        awaited.deliver(42)
        awaited.deliver(7)  // ignored: delivered once
        var values: [Int] = []
        for task in early { values.append(await task.value) }
        values.append(await awaited.value)
        #expect(values == [42, 42, 42, 42])
        #expect(awaited.waiterCount == 0)
    }
}
