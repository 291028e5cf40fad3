import CCurl
import CCurlShim
import Foundation

/// One curl multi handle and the thread that waits for its sockets.
///
/// curl is driven under one lock (`driver`) by whichever thread has work: the engine thread,
/// after its wait in epoll returns, and any caller whose command (start, cancel, pause...) finds
/// the lock free, which then performs it at once: a request is sent from the thread that set it
/// up, without waking the engine thread. A command that finds the lock taken is queued for the
/// holder and wakes the engine thread. curl's callbacks therefore run on the thread that holds
/// the lock; they only copy bytes and queue work elsewhere, never take the lock themselves.
/// Downloads are driven by the engine thread only (it blocks SIGXFSZ, see below), and so is
/// everything when the engine was made on a thread in another network namespace than the
/// process's: a Session's connections are opened in the namespace of the thread that made it.
final class CurlEngine: @unchecked Sendable {
    /// Limits applied to the multi handle.
    struct Limits: Sendable {
        var maximumConnectionsPerHost: Int
        var maximumCachedConnections: Int
    }

    private enum Command {
        case start(Transfer)
        case cancel(Transfer)
        case pause(Transfer)
        case unpause(Transfer)
        case resumeFlow(Transfer)
    }

    private static let globalInit: Void = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        afc_set_trust_callback(transferTrustCallback)
    }()

    private static let maximumPooledHandles = 64
    /// Longest wait in milliseconds when nothing is due sooner.
    private static let longestWait: Int32 = 1000

    private let multi: UnsafeMutableRawPointer
    private let poller: OpaquePointer
    private let driver = EngineLock()
    private let commands = Protected<CommandQueue>(CommandQueue())

    /// Commands the lock's holder has not taken yet; once the engine has ended, none is accepted
    /// (its multi handle and poller are gone).
    private struct CommandQueue {
        var pending: [Command] = []
        var shutdownRequested = false
        var ended = false
    }

    // State under `driver`.
    private var running: [UnsafeMutableRawPointer: Transfer] = [:]
    /// The running transfers whose idle timeout the engine keeps (see `IdleWatch`).
    private var idleWatched: [Transfer] = []
    private var pool: [EasyHandle] = []
    /// Running transfers that write a file: while there is one, only the engine thread drives.
    private var downloadsRunning = 0
    private var ended = false
    /// Whether callers may drive curl (see the type's comment).
    private let callersDrive: Bool

    init(limits: Limits, name: String) {
        _ = Self.globalInit
        multi = curl_multi_init()
        guard let poller = afc_poller_create(multi) else { fatalError("AF: cannot create the engine's epoll and eventfd descriptors") }
        self.poller = poller
        callersDrive = Self.threadSharesProcessNetworkNamespace()
        afc_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        afc_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, limits.maximumConnectionsPerHost)
        afc_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, limits.maximumCachedConnections)
        // The thread keeps the engine alive until `run()` returns after a shutdown.
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// Adds `transfer` to the multi handle.
    func start(_ transfer: Transfer) { submit(.start(transfer)) }

    /// Stops `transfer`; its delegate gets a cancelled outcome unless it already completed.
    func cancel(_ transfer: Transfer) { submit(.cancel(transfer)) }

    /// Pauses `transfer`'s sending and receiving.
    func pause(_ transfer: Transfer) { submit(.pause(transfer)) }

    /// Resumes a paused `transfer`.
    func unpause(_ transfer: Transfer) { submit(.unpause(transfer)) }

    /// Resumes a transfer that paused itself (its upload stream had nothing to give, or its
    /// streamed body's consumer fell behind), unless the task paused it.
    func resumeFlow(_ transfer: Transfer) { submit(.resumeFlow(transfer)) }

    /// Cancels every transfer and ends the engine thread; later commands are ignored.
    func shutdown() {
        commands.withLock { queue in
            guard !queue.ended, !queue.shutdownRequested else { return }
            queue.shutdownRequested = true
            afc_poller_wake(poller)
        }
    }

    /// Performs `command` on this thread when no other drives curl (with the commands queued
    /// before it, so their order holds), else queues it for the thread that does.
    private func submit(_ command: Command) {
        guard callersDrive, driver.tryLock() else { return enqueue(command) }
        defer { driver.unlock() }
        guard !ended else { return }
        guard downloadsRunning == 0 else {
            // Left to the engine thread, which blocks SIGXFSZ for the file's writes.
            return enqueue(command)
        }
        var wakeWaiter = false
        for queued in takePending() { wakeWaiter = perform(queued, onEngineThread: false) || wakeWaiter }
        wakeWaiter = perform(command, onEngineThread: false) || wakeWaiter
        afc_poller_run_due(poller)
        collectFinishedTransfers()
        // Under the lock: the poller is freed only by the engine thread, which holds it then.
        if wakeWaiter || afc_poller_waiter_is_late(poller) != 0 { afc_poller_wake(poller) }
    }

    private func enqueue(_ command: Command) {
        // The holder takes the whole queue at once: only the command that finds it empty needs
        // to wake the engine thread; the others ride along.
        // The wake-up is sent under the lock, so it never reaches a poller the engine freed.
        commands.withLock { queue in
            guard !queue.ended else { return }
            if queue.pending.isEmpty { afc_poller_wake(poller) }
            queue.pending.append(command)
        }
    }

    private func takePending() -> [Command] {
        commands.withLock { queue -> [Command] in
            guard !queue.pending.isEmpty else { return [] }
            let taken = queue.pending
            queue.pending.removeAll(keepingCapacity: true)
            return taken
        }
    }

    // MARK: Engine thread

    private func run() {
        Self.blockFileSizeSignal()
        driver.lock()
        while true {
            if commands.withLock({ $0.shutdownRequested }) { return tearDown() }
            for command in takePending() { _ = perform(command, onEngineThread: true) }
            afc_poller_run_due(poller)
            collectFinishedTransfers()
            let timeout = afc_poller_prepare_wait(poller, expireIdleTransfers())
            driver.unlock()
            afc_poller_wait(poller, timeout)
            driver.lock()
            afc_poller_act(poller)
            collectFinishedTransfers()
        }
    }

    /// Ends the watched transfers idle past their limit (`URLError.timedOut`); returns how long
    /// the loop may wait, in milliseconds, before the next one could expire (at most a second).
    private func expireIdleTransfers() -> Int32 {
        guard !idleWatched.isEmpty else { return Self.longestWait }
        let now = DispatchTime.now().uptimeNanoseconds
        var wait: UInt64 = 1_000_000_000
        for transfer in idleWatched where !transfer.isSuspended {
            guard let remaining = transfer.idleWatch?.remaining(now: now) else { continue }
            if remaining == 0 {
                finish(transfer, result: CURLE_OPERATION_TIMEDOUT, cancelled: false)
            } else {
                wait = min(wait, remaining)
            }
        }
        return Int32((wait + 999_999) / 1_000_000)
    }

    /// Whether the calling thread is in the process's network namespace (a thread may have
    /// entered another with `setns`). True when `/proc` cannot tell.
    private static func threadSharesProcessNetworkNamespace() -> Bool {
        func namespace(_ path: String) -> String? {
            var buffer = [CChar](repeating: 0, count: 128)
            let length = readlink(path, &buffer, buffer.count - 1)
            return length > 0 ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
        }
        guard let thread = namespace("/proc/thread-self/ns/net"), let process = namespace("/proc/self/ns/net") else { return true }
        return thread == process
    }

    /// Downloads are written on this thread. Past a file size limit (`ulimit -f`) the kernel
    /// sends SIGXFSZ, which kills the process by default; blocked on this thread, the write
    /// fails with EFBIG instead and the download ends with `URLError.cannotWriteToFile`.
    private static func blockFileSizeSignal() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGXFSZ)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    /// Performs `command` under the lock; true when the engine thread must look at its waiting
    /// time again (a transfer it must watch for idleness was added).
    private func perform(_ command: Command, onEngineThread: Bool) -> Bool {
        switch command {
        case let .start(transfer):
            guard case let .waiting(paused) = transfer.phase else { return false }
            if !onEngineThread, transfer.spec.download != nil {
                enqueue(command)
                return false
            }
            add(transfer, paused: paused)
            return transfer.idleWatch != nil
        case let .cancel(transfer):
            switch transfer.phase {
            case .running:
                finish(transfer, result: CURLE_ABORTED_BY_CALLBACK, cancelled: true)
            case .waiting:
                transfer.delegate.transferDidComplete(transfer, outcome: transfer.makeOutcome(result: CURLE_OK, cancelled: true))
            case .finished:
                break
            }
        case let .pause(transfer):
            switch transfer.phase {
            case let .running(handle):
                transfer.isSuspended = true
                curl_easy_pause(handle.raw, CURLPAUSE_ALL)
            case .waiting: transfer.phase = .waiting(paused: true)
            case .finished: break
            }
        case let .unpause(transfer):
            switch transfer.phase {
            case let .running(handle):
                transfer.isSuspended = false
                transfer.idleWatch?.noteActivity()
                unpause(transfer, handle)
                return transfer.idleWatch != nil
            case .waiting: transfer.phase = .waiting(paused: false)
            case .finished: break
            }
        case let .resumeFlow(transfer):
            if case let .running(handle) = transfer.phase, !transfer.isSuspended {
                unpause(transfer, handle)
            }
        }
        return false
    }

    /// Lets `transfer` go on. curl hands it the data it held back at once; when the transfer
    /// refuses that, curl reports the error here and never runs the handle again: it ends now.
    private func unpause(_ transfer: Transfer, _ handle: EasyHandle) {
        let result = curl_easy_pause(handle.raw, CURLPAUSE_CONT)
        if result != CURLE_OK { finish(transfer, result: result, cancelled: false) }
    }

    private func add(_ transfer: Transfer, paused: Bool) {
        guard let handle = pool.popLast() ?? EasyHandle() else {
            return failBeforeStart(transfer, CurlFailure(code: CURLE_OUT_OF_MEMORY, message: "curl_easy_init failed"))
        }
        guard transfer.configure(handle, engine: self) else {
            handle.reset()
            pool.append(handle)
            return failBeforeStart(transfer, transfer.setupFailure)
        }
        running[handle.raw] = transfer
        if transfer.idleWatch != nil {
            transfer.idleWatch?.noteActivity()
            idleWatched.append(transfer)
        }
        if transfer.spec.download != nil { downloadsRunning += 1 }
        curl_multi_add_handle(multi, handle.raw)
        if paused {
            transfer.isSuspended = true
            curl_easy_pause(handle.raw, CURLPAUSE_ALL)
        }
    }

    /// Ends a transfer that could not be handed to curl.
    private func failBeforeStart(_ transfer: Transfer, _ failure: CurlFailure?) {
        transfer.phase = .finished
        transfer.delegate.transferDidComplete(
            transfer, outcome: TransferOutcome(head: nil, body: Data(), failure: failure,
                                               wasCancelled: false, timings: CurlTimings()))
    }

    private func collectFinishedTransfers() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            var easy: UnsafeMutableRawPointer?
            var result = CURLE_OK
            guard afc_multi_message_done(message, &easy, &result) != 0, let easy,
                  let transfer = running[easy] else { continue }
            finish(transfer, result: result, cancelled: false)
        }
    }

    private func finish(_ transfer: Transfer, result: CURLcode, cancelled: Bool) {
        guard case let .running(handle) = transfer.phase else { return }
        curl_multi_remove_handle(multi, handle.raw)
        running[handle.raw] = nil
        if transfer.idleWatch != nil { idleWatched.removeAll { $0 === transfer } }
        if transfer.spec.download != nil { downloadsRunning -= 1 }
        let outcome = transfer.makeOutcome(result: result, cancelled: cancelled)
        handle.recycle()
        if pool.count < Self.maximumPooledHandles { pool.append(handle) }
        transfer.delegate.transferDidComplete(transfer, outcome: outcome)
    }

    /// Ends the engine (engine thread, holding the lock, which it leaves to callers that will
    /// find `ended` set).
    private func tearDown() {
        commands.withLock { $0.ended = true }
        ended = true
        for transfer in Array(running.values) {
            finish(transfer, result: CURLE_ABORTED_BY_CALLBACK, cancelled: true)
        }
        pool.removeAll()
        curl_multi_cleanup(multi)
        afc_poller_destroy(poller)
        driver.unlock()
    }
}
