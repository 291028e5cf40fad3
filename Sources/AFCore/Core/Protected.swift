#if canImport(Glibc)
import Glibc
#endif

/// A value guarded by one lock, reached only through closures. Shared with the package's
/// other modules (`package`), not public.
///
/// Decide under the lock, act after it: closures passed here must not call out to user code,
/// monitors or curl.
///
/// The lock is a pthread mutex rather than `Synchronization.Mutex`: the thread sanitizer
/// intercepts pthread locking, so races it reports are real ones.
package final class Protected<Value: ~Copyable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var stored: Value

    package init(_ value: consuming sending Value) {
        stored = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func withLock<Result: ~Copyable, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&stored)
    }
}

extension Protected where Value: Copyable & Sendable {
    /// A copy of the current value.
    package var value: Value { withLock { $0 } }
}
