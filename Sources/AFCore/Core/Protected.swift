#if canImport(Glibc)
import Glibc
#endif

/// A value guarded by one lock, reached only through closures. Copies share the one value and
/// lock, as references to an object would. Shared with the package's other modules (`package`),
/// not public.
///
/// Decide under the lock, act after it: closures passed here must not call out to user code,
/// monitors or curl.
///
/// The lock is a pthread mutex rather than `Synchronization.Mutex`: the thread sanitizer
/// intercepts pthread locking, so races it reports are real ones.
@usableFromInline package struct Protected<Value: ~Copyable>: @unchecked Sendable {
    @usableFromInline let storage: ProtectedStorage<Value>

    package init(_ value: consuming sending Value) {
        storage = ProtectedStorage.make(holding: value)
    }

    @inlinable package func withLock<Result: ~Copyable, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        try storage.withUnsafeMutablePointers { mutex, stored throws(E) -> Result in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&stored.pointee)
        }
    }
}

extension Protected where Value: Copyable & Sendable {
    /// A copy of the current value.
    package var value: Value { withLock { $0 } }
}

/// The mutex and the value of a `Protected` in one allocation: the mutex in the object, the
/// value after it. Both are reached through pointers, so an access costs no dynamic exclusivity
/// check: the lock already makes accesses exclusive.
@usableFromInline final class ProtectedStorage<Value: ~Copyable>: ManagedBuffer<pthread_mutex_t, Value> {
    /// A storage holding `value`, its mutex initialized.
    static func make(holding value: consuming Value) -> ProtectedStorage {
        let storage = unsafeDowncast(create(minimumCapacity: 1) { _ in pthread_mutex_t() }, to: ProtectedStorage.self)
        storage.withUnsafeMutablePointerToHeader { _ = pthread_mutex_init($0, nil) }
        storage.withUnsafeMutablePointerToElements { $0 }.initialize(to: value)
        return storage
    }

    deinit {
        withUnsafeMutablePointers { mutex, value in
            pthread_mutex_destroy(mutex)
            value.deinitialize(count: 1)
        }
    }
}
