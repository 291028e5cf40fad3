import CCurlShim
import Foundation

/// The engine's thread: a POSIX thread that is joined once it has run, so that its whole end
/// (the per-thread cleanup of the C libraries it used among it) is over before a shutdown
/// reports the engine ended. A process may exit right after that report.
final class EngineThread: @unchecked Sendable {
    /// Written by `start` before the thread can end, read by `join` after it ended.
    private var thread = pthread_t()
    private let name: String

    /// `name`: the thread's name (the kernel keeps its first 15 bytes).
    init(name: String) {
        self.name = name
    }

    /// Runs `body` on the thread. Called once.
    func start(_ body: @escaping @Sendable () -> Void) {
        let name = name
        let context = Unmanaged.passRetained(Start(body: { afc_name_current_thread(name); body() })).toOpaque()
        let result = pthread_create(&thread, nil, { context in
            Unmanaged<Start>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<Start>.fromOpaque(context).release()
            preconditionFailure("The engine's thread could not be started: \(String(cString: strerror(result)))")
        }
    }

    /// Waits until the thread has ended. Called once, from another thread, after `body` returned.
    func join() {
        pthread_join(thread, nil)
    }

    private final class Start {
        let body: () -> Void
        init(body: @escaping () -> Void) { self.body = body }
    }
}
