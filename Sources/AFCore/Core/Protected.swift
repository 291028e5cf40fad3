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
@usableFromInline package final class Protected<Value: ~Copyable>: @unchecked Sendable {
    // The mutex and the value share one allocation. The value is reached through a pointer, so
    // an access costs no dynamic exclusivity check: the lock already makes accesses exclusive.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let stored: UnsafeMutablePointer<Value>

    package init(_ value: consuming sending Value) {
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: Self.valueOffset + MemoryLayout<Value>.size,
            alignment: max(MemoryLayout<pthread_mutex_t>.alignment, MemoryLayout<Value>.alignment))
        mutex = raw.bindMemory(to: pthread_mutex_t.self, capacity: 1)
        stored = (raw + Self.valueOffset).bindMemory(to: Value.self, capacity: 1)
        stored.initialize(to: value)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        stored.deinitialize(count: 1)
        UnsafeMutableRawPointer(mutex).deallocate()
    }

    /// Where the value starts: after the mutex, aligned for the value.
    private static var valueOffset: Int {
        let alignment = MemoryLayout<Value>.alignment
        return (MemoryLayout<pthread_mutex_t>.stride + alignment - 1) / alignment * alignment
    }

    @usableFromInline package func withLock<Result: ~Copyable, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&stored.pointee)
    }
}

extension Protected where Value: Copyable & Sendable {
    /// A copy of the current value.
    package var value: Value { withLock { $0 } }
}
