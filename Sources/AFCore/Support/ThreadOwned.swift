#if canImport(Glibc)
import Glibc
#endif

/// One instance of `Value` per thread, made at the thread's first use and released when the
/// thread ends (the main thread's lives until the process ends): for objects reused by one
/// thread at a time without a lock.
final class ThreadOwned<Value: AnyObject>: Sendable {
    private let key: pthread_key_t
    private let make: @Sendable () -> Value

    /// Keys are few (a process has at least 128); make these once, as static constants.
    init(_ make: @escaping @Sendable () -> Value) {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { owned in
            owned.map { Unmanaged<AnyObject>.fromOpaque($0).release() }
        }
        precondition(status == 0, "no thread-local key left (error \(status))")
        self.key = key
        self.make = make
    }

    /// The calling thread's instance.
    var current: Value {
        if let owned = pthread_getspecific(key) {
            return Unmanaged<Value>.fromOpaque(owned).takeUnretainedValue()
        }
        let made = make()
        let status = pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        precondition(status == 0, "no memory for a thread-local value (error \(status))")
        return made
    }
}
