import Foundation

/// The next request number to start, shared by a client's in-flight loops: one lock per request.
public final class StartCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var started = 0
    private let limit: Int

    /// A counter handing out `limit` starts.
    public init(limit: Int) { self.limit = limit }

    /// Takes the next start; false once `limit` were taken.
    public func take() -> Bool {
        lock.withLock {
            guard started < limit else { return false }
            started += 1
            return true
        }
    }
}
