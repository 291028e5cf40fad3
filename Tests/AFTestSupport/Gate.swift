import Foundation

/// Counts calls and opens once a number of them was reached (or after a generous timeout, so a
/// broken expectation fails the test instead of hanging it).
package final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var count = 0
    private let needed: Int

    package init(opensAfter needed: Int) {
        self.needed = needed
    }

    package func arrive() {
        condition.lock()
        count += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks until `needed` arrivals (at most 20 s); whether they all came.
    @discardableResult
    package func wait() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(20)
        while count < needed {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }
}
