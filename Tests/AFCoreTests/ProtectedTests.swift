@testable import AFCore
import Dispatch
import Foundation
import Synchronization
import Testing

@Suite struct ProtectedTests {
    /// Two threads change one value with no ordering between them but the lock: every change
    /// is kept, and the thread sanitizer (the suite is also run under it) reports no race. The
    /// threads meet on a relaxed atomic first, which orders nothing, so their loops overlap.
    @Test func changesFromTwoThreadsAreAllKept() {
        struct Tally { var count = 0; var marks: [Int] = [] }
        final class Meeting: Sendable { let arrived = Atomic<Int>(0) }
        let tally = Protected(Tally())
        let meeting = Meeting()
        let done = DispatchSemaphore(value: 0)
        let rounds = 20_000
        for _ in 0..<2 {
            Thread {
                meeting.arrived.add(1, ordering: .relaxed)
                while meeting.arrived.load(ordering: .relaxed) < 2 {}
                for round in 0..<rounds {
                    tally.withLock { tally in
                        tally.count += 1
                        if round % 1_000 == 0 { tally.marks.append(round) }
                    }
                }
                done.signal()
            }.start()
        }
        done.wait()
        done.wait()
        #expect(tally.withLock { $0.count } == 2 * rounds)
        #expect(tally.withLock { $0.marks.count } == 2 * rounds / 1_000)
    }
}
