@testable import AFCore
import Dispatch
import Testing

@Suite struct ProtectedTests {
    /// Two threads change one value with no ordering between them but the lock: every change
    /// is kept, and the thread sanitizer (the suite is also run under it) reports no race.
    @Test func changesFromTwoThreadsAreAllKept() {
        struct Tally { var count = 0; var marks: [Int] = [] }
        let tally = Protected(Tally())
        let rounds = 20_000
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for round in 0..<rounds {
                tally.withLock { tally in
                    tally.count += 1
                    if round % 1_000 == 0 { tally.marks.append(round) }
                }
            }
        }
        #expect(tally.withLock { $0.count } == 2 * rounds)
        #expect(tally.withLock { $0.marks.count } == 2 * rounds / 1_000)
    }
}
