import Foundation

/// A value behind an `NSLock`, reached only through closures. Not `Synchronization.Mutex`: the
/// thread sanitizer does not see the ordering that Mutex's lock makes on Linux, and reports
/// every access to the value it guards from two threads as a race; it does see a pthread lock's.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
