#if canImport(Glibc)
import Glibc
#endif

/// The lock held by whichever thread drives curl: the engine thread between two waits, or a
/// caller that found it free (`tryLock`). A pthread mutex, so the thread sanitizer sees it.
final class EngineLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }

    /// Takes the lock when no thread holds it (the holder included: never re-entered).
    func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }

    func unlock() { pthread_mutex_unlock(mutex) }
}
