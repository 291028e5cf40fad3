import Synchronization

/// A value guarded by one lock, reached only through closures.
///
/// Decide under the lock, act after it: closures passed here must not call out to user code,
/// monitors or curl.
final class Protected<Value: ~Copyable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try mutex.withLock(body)
    }
}

extension Protected where Value: Copyable & Sendable {
    /// A copy of the current value.
    var value: Value { withLock { $0 } }
}
