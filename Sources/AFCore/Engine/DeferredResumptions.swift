#if canImport(Glibc)
import Glibc
#endif
import Dispatch

/// Resumptions of tasks awaiting a response (`AwaitedResponse`) held back while a thread runs a
/// completion inside a request's queue, and made once it has left that queue. A task resumed
/// inside would at once queue its next request's setup on the queue the thread still holds,
/// and a worker would be woken for it later; resumed after, the task finds the queue free.
///
/// The engine has one, for the completions its thread runs when idle. A completion run on its
/// handler's queue (see `SessionTask.transferDidComplete`) uses its thread's own, pointed at
/// that queue for the time, which also holds the handler calls bound for the queue: made after
/// the completion, where the thread already is, they cost no trip. (A new one collects while
/// the thread's own still makes what it held.)
///
/// Used by one thread at a time: `collecting` runs on the thread that holds the collection, and
/// the list is reached only through the thread-local slot that thread sets. So its state goes
/// without the runtime's exclusivity checks, and none of its accesses calls out while it lasts.
final class DeferredResumptions: @unchecked Sendable {
    @exclusivity(unchecked) private var held: [StoredClosure] = []
    /// The queue the collecting thread runs on, whose handler calls are held too; nil for the engine's.
    @exclusivity(unchecked) private var queue: DispatchQueue?
    /// Whether a collection of this instance is under way (its held work included).
    @exclusivity(unchecked) private var collects = false

    init(runningOn queue: DispatchQueue? = nil) {
        self.queue = queue
    }

    /// Whether work bound for `queue` is held (the collecting thread runs on it).
    func holds(_ queue: DispatchQueue) -> Bool { self.queue === queue }

    private static let slot: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "no thread-local key left for the engine (error \(status))")
        return key
    }()

    /// Runs `body`, holding back the resumptions made in it on this thread, then makes them in
    /// the order they were made. Inside another collection, the outer one holds them.
    func collecting(_ body: () -> Void) {
        guard pthread_getspecific(Self.slot) == nil else { return body() }
        collects = true
        pthread_setspecific(Self.slot, Unmanaged.passUnretained(self).toOpaque())
        body()
        pthread_setspecific(Self.slot, nil)
        // Nothing is held while they are made: the slot is clear.
        for entry in held { entry.run() }
        held.removeAll(keepingCapacity: true)
        collects = false
    }

    /// As `collecting(_:)` on an instance for `queue` (see `init(runningOn:)`): the calling
    /// thread's own, reused from one completion to the next, unless it is collecting already.
    static func collecting(runningOn queue: DispatchQueue, _ body: () -> Void) {
        // Inside another collection, which holds what `body` makes.
        guard pthread_getspecific(slot) == nil else { return body() }
        let own = perThread.current
        guard !own.collects else { return DeferredResumptions(runningOn: queue).collecting(body) }
        own.queue = queue
        own.collecting(body)
        own.queue = nil
    }

    private static let perThread = ThreadOwned { DeferredResumptions() }

    /// The collection under way on the current thread, if any.
    static var current: DeferredResumptions? {
        pthread_getspecific(slot).map { Unmanaged<DeferredResumptions>.fromOpaque($0).takeUnretainedValue() }
    }

    /// How many resumptions wait for the collection under way to end (for tests).
    var heldCount: Int { held.count }

    /// Holds `resumption` (or a handler call for the collection's queue) until the collection
    /// under way ends.
    func hold(_ resumption: @escaping @Sendable () -> Void) {
        held.append(StoredClosure(resumption))
    }
}
