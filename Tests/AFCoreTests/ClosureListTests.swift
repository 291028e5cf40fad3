@testable import AFCore
import Testing

/// The list a request keeps its validators and serializers in: its first
/// closure is held apart from the rest, which must not show.
struct ClosureListTests {
    /// Appends a closure that records `value` in `calls`.
    private func recording(_ value: Int, in calls: Protected<[Int]>) -> @Sendable () -> Void {
        { calls.withLock { $0.append(value) } }
    }

    @Test func anEmptyListRunsNothing() {
        let list = ClosureList()
        #expect(list.isEmpty)
        #expect(list.count == 0)
        list.runAll()
    }

    @Test func closuresRunInTheOrderTheyWereAdded() {
        let calls = Protected<[Int]>([])
        var list = ClosureList()
        for value in 1...4 { list.append(recording(value, in: calls)) }
        #expect(!list.isEmpty)
        #expect(list.count == 4)
        list.runAll()
        #expect(calls.value == [1, 2, 3, 4])
    }

    @Test func eachPositionGivesItsClosure() {
        let calls = Protected<[Int]>([])
        var list = ClosureList()
        for value in 1...3 { list.append(recording(value, in: calls)) }
        list[2]()
        list[0]()
        list[1]()
        #expect(calls.value == [3, 1, 2])
    }

    @Test func aListEmptiedTakesClosuresAgainFromTheFirst() {
        let calls = Protected<[Int]>([])
        var list = ClosureList()
        list.append(recording(1, in: calls))
        list.append(recording(2, in: calls))
        list.removeAll()
        #expect(list.isEmpty)
        #expect(list.count == 0)
        list.append(recording(3, in: calls))
        #expect(list.count == 1)
        list.runAll()
        #expect(calls.value == [3])
    }
}
