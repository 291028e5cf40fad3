import CCurl
import CCurlShim
import Foundation
import Synchronization

/// One curl multi handle driven by its own thread. Other threads enqueue commands and wake it,
/// with one exception: while no transfer runs, the engine waits outside curl (parked), and a
/// thread that starts a plain transfer then hands it to curl itself (`drive`), so the request
/// goes out without waiting for the engine thread to wake. Curl is only ever called by the
/// holder of `multiLock`: the engine thread, except while parked, or a driving thread.
final class CurlEngine: @unchecked Sendable {
    /// Limits applied to the multi handle.
    struct Limits: Sendable {
        var maximumConnectionsPerHost: Int
        var maximumCachedConnections: Int
        /// Whether connections follow the host's network (see `NetworkPathWatch`).
        var followsNetworkChanges = true
        var tcpKeepAlive: TCPKeepAlive? = .default
    }

    private static let globalInit: Void = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        afc_set_trust_callback(transferTrustCallback)
    }()

    private static let maximumPooledHandles = 64
    /// Commands taken per pass once the last transfer to finish ran over cleartext HTTP/1. Each
    /// request sent there costs the pass its own write (and curl builds it byte by byte), so a
    /// burst of starts taken whole would hold back the responses already waiting, and with them
    /// the completions that keep `rootQueue` busy meanwhile: the engine and `rootQueue` would
    /// take turns instead of working side by side. Over a multiplexed connection a burst's
    /// requests go out together, and splitting it costs more than it saves; where curl may wait
    /// to multiplex, a split burst sometimes stalled for a second (measured in Benchmarks/README),
    /// so a burst holding such a start is taken whole.
    private static let commandsPerPass = 8

    private let multi: UnsafeMutableRawPointer
    /// Held by whoever calls curl (see the type's description).
    private let multiLock = NSLock()
    /// Where the engine thread waits while nothing runs; nil if it could not be made.
    private let parking = EngineParking()
    /// The engine's connections and the network changes they follow.
    let paths: NetworkPathWatch
    private let commands = Protected(EngineCommandQueue())
    /// Wake-ups counted under the commands' lock and not sent yet (see `enqueue`).
    private let wakeUpsUnderWay = Atomic<Int>(0)
    /// Resumptions of tasks awaiting a response, held while the engine thread runs a completion
    /// inside a task's queue.
    let deferredResumptions = DeferredResumptions()

    /// Transfers their callers handed to curl themselves (for tests).
    private let drivenStarts = Atomic<Int>(0)
    var drivenStartCount: Int { drivenStarts.load(ordering: .relaxed) }
    /// The longest the engine waits, in milliseconds, when nothing is due sooner (a second;
    /// tests make it long, so that a missing wake-up shows as a hang).
    let longestWait = Atomic<Int32>(1000)

    /// Runs `body` once the engine is in `state` (`.parked` or `.watching`; now, if it is), for
    /// tests that need a command to find it so.
    func when(_ state: EngineCommandQueue.Waiting, _ body: @escaping @Sendable () -> Void) {
        if !commands.withLock({ $0.wait(for: state, body) }) { body() }
    }

    // State of the holder of `multiLock`: the engine thread, or a thread driving a start.
    private var running: [UnsafeMutableRawPointer: Transfer] = [:]
    /// The running transfers whose idle timeout the engine keeps (see `IdleWatch`).
    private var idleWatched: [Transfer] = []
    private var pool: [EasyHandle] = []
    /// Whether the last transfer to finish with a response ran over HTTP/1 where curl does not
    /// wait to multiplex (see `commandsPerPass`); until one did, bursts are taken whole.
    private var splitsBursts = false
    /// The connection the last transfer to end left in curl's cache, when none other runs;
    /// forgotten once the engine waits for nothing for a while (it may be closed by then).
    private var keptConnection: EngineCommandQueue.KeptConnection?
    /// The completions of the engine's pass, queued at its end (kept for its storage).
    private var completions = CompletionBatch()

    init(limits: Limits, name: String) {
        _ = Self.globalInit
        multi = curl_multi_init()
        afc_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        afc_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, limits.maximumConnectionsPerHost)
        afc_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, limits.maximumCachedConnections)
        paths = NetworkPathWatch(follows: limits.followsNetworkChanges, keepAlive: limits.tcpKeepAlive)
        parking?.noteSockets(of: multi)
        // The thread keeps the engine alive until `run()` returns after a shutdown.
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// Adds `transfer` to the multi handle.
    func start(_ transfer: Transfer) { enqueue(.start(transfer)) }

    /// Stops `transfer`; its delegate gets a cancelled outcome unless it already completed.
    func cancel(_ transfer: Transfer) { enqueue(.cancel(transfer)) }

    /// Pauses `transfer`'s sending and receiving.
    func pause(_ transfer: Transfer) { enqueue(.pause(transfer)) }

    /// Resumes a paused `transfer`.
    func unpause(_ transfer: Transfer) { enqueue(.unpause(transfer)) }

    /// Resumes a transfer that paused itself (its upload stream had nothing to give, or its
    /// streamed body's consumer fell behind), unless the task paused it.
    func resumeFlow(_ transfer: Transfer) { enqueue(.resumeFlow(transfer)) }

    /// Runs `body` at the first change of the host's network heard after the one a transfer
    /// started with (`Transfer.pathGeneration`); at once if one was heard since. `body` runs on
    /// the engine thread and must only hand work to another queue. Never after a shutdown.
    func awaitNetworkChange(since generation: UInt64, _ body: @escaping @Sendable () -> Void) {
        enqueue(.awaitNetworkChange(since: generation, body))
    }

    /// Cancels every transfer and ends the engine thread; later commands are ignored.
    func shutdown() { enqueue(.shutdown) }

    private func enqueue(_ command: EngineCommand) {
        // A wake-up through curl (a write to its socket pair) is sent after the lock is let go:
        // sent under it, the engine woke only to wait for the lock. It is counted under the
        // lock, and the engine frees its multi handle only once no counted wake-up is under way.
        let next = commands.withLock { queue in
            let next = queue.accept(command, parking: parking)
            if case .wakeThroughCurl = next { wakeUpsUnderWay.add(1, ordering: .relaxed) }
            return next
        }
        switch next {
        case .nothing:
            break
        case .wakeThroughCurl:
            curl_multi_wakeup(multi)
            wakeUpsUnderWay.subtract(1, ordering: .releasing)
        case let .drive(transfer, parking):
            drive(transfer, parking: parking)
        }
    }

    /// Hands `transfer` to curl on the calling thread while the engine is parked, so its
    /// request goes out at once; then leaves the engine watching the transfer's connection (and
    /// a timer, when curl or the transfer's idle limit is due before the engine would wake), or
    /// wakes it when curl needs more than that (see `EngineCommandQueue.endDrive`).
    private func drive(_ transfer: Transfer, parking: EngineParking) {
        drivenStarts.add(1, ordering: .relaxed)
        multiLock.lock()
        _ = perform(.start(transfer))
        let stillRunning = parking.perform(multi)
        // A connection off the host opened here is watched from now: the parked engine's own pass
        // would only see it after its wait.
        paths.syncWatch(parking)
        var timeout = -1
        curl_multi_timeout(multi, &timeout)
        let now = DispatchTime.now().uptimeNanoseconds
        var due = timeout < 0 ? UInt64.max : Self.deadline(now: now, milliseconds: timeout)
        if let remaining = transfer.idleWatch?.remaining(now: now) { due = min(due, now + remaining) }
        // Watched only while curl waits on the transfer's socket and has nothing to do at once.
        let socket = timeout != 0 && stillRunning == 1 ? parking.watchNotedSocket() : nil
        let (kept, waiters) = commands.withLock { $0.endDrive(socket: socket, due: due, now: now, parking: parking) }
        if let socket, !kept { parking.unwatch(socket) }
        multiLock.unlock()
        waiters.forEach { $0() }
    }

    // MARK: Engine thread

    private func run() {
        Self.blockFileSizeSignal()
        var stillRunning: Int32 = 0
        multiLock.lock()
        while true {
            let limit = splitsBursts ? Self.commandsPerPass : Int.max
            let (pending, more) = commands.withLock { queue -> ([EngineCommand], Bool) in
                guard queue.pending.count > limit, !queue.pending.contains(where: \.waitsToMultiplex) else {
                    defer { queue.pending.removeAll(keepingCapacity: true) }
                    return (queue.pending, false)
                }
                defer { queue.pending.removeFirst(limit) }
                return (Array(queue.pending.prefix(limit)), true)
            }
            for command in pending where !perform(command) {
                commands.withLock { $0.ended = true }
                tearDown()
                multiLock.unlock()
                return
            }
            curl_multi_perform(multi, &stillRunning)
            collectFinishedTransfers()
            // Commands left behind were queued before any new one, which would not wake the
            // engine: they are taken in the next pass, without waiting.
            let wait = expireIdleTransfers()
            // With nothing running, the engine waits outside curl, so that the next start's
            // caller may send it at once (see `drive`).
            let watchesPaths = paths.syncWatch(parking)
            if !more, running.isEmpty, let parking, let waiters = commands.withLock({
                $0.park(until: DispatchTime.now().uptimeNanoseconds + UInt64(wait) * 1_000_000, connection: keptConnection)
            }) {
                multiLock.unlock()
                waiters.forEach { $0() }
                let pathChanged = parking.wait(milliseconds: wait, flagging: paths.monitor)
                commands.withLock { $0.unpark(parking) }
                keptConnection = nil
                multiLock.lock()
                if pathChanged { paths.monitorIsReady() }
            } else if watchesPaths {
                // The network's changes wake the engine too, and are taken in before the
                // commands that came with them.
                var monitor = curl_waitfd(fd: paths.monitor, events: Int16(CURL_WAIT_POLLIN), revents: 0)
                curl_multi_poll(multi, &monitor, 1, more ? 0 : wait, nil)
                if monitor.revents != 0 { paths.monitorIsReady() }
            } else {
                curl_multi_poll(multi, nil, 0, more ? 0 : wait, nil)
            }
        }
    }

    /// The uptime `milliseconds` after `now`, in nanoseconds; `UInt64.max` when that is past
    /// what the clock can count (curl may ask to wait for as long as a transfer may last).
    static func deadline(now: UInt64, milliseconds: Int) -> UInt64 {
        let (nanoseconds, overflow) = UInt64(max(0, milliseconds)).multipliedReportingOverflow(by: 1_000_000)
        let (due, later) = now.addingReportingOverflow(nanoseconds)
        return overflow || later ? .max : due
    }

    /// Ends the watched transfers idle past their limit (`URLError.timedOut`); returns how long
    /// the loop may wait, in milliseconds, before the next one could expire (at most
    /// `longestWait`).
    private func expireIdleTransfers() -> Int32 {
        let longest = longestWait.load(ordering: .relaxed)
        guard !idleWatched.isEmpty else { return longest }
        let now = DispatchTime.now().uptimeNanoseconds
        var wait = UInt64(longest) * 1_000_000
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

    /// Downloads are written on this thread. Past a file size limit (`ulimit -f`) the kernel
    /// sends SIGXFSZ, which kills the process by default; blocked on this thread, the write
    /// fails with EFBIG instead and the download ends with `URLError.cannotWriteToFile`.
    private static func blockFileSizeSignal() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGXFSZ)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    /// Returns false when the engine must stop.
    private func perform(_ command: EngineCommand) -> Bool {
        switch command {
        case let .start(transfer):
            if case let .waiting(paused) = transfer.phase { add(transfer, paused: paused) }
        case let .cancel(transfer):
            switch transfer.phase {
            case .running:
                finish(transfer, result: CURLE_ABORTED_BY_CALLBACK, cancelled: true)
            case .waiting:
                complete(transfer, outcome: transfer.makeOutcome(result: CURLE_OK, cancelled: true))
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
                curl_easy_pause(handle.raw, CURLPAUSE_CONT)
            case .waiting: transfer.phase = .waiting(paused: false)
            case .finished: break
            }
        case let .resumeFlow(transfer):
            if case let .running(handle) = transfer.phase, !transfer.isSuspended {
                curl_easy_pause(handle.raw, CURLPAUSE_CONT)
            }
        case let .awaitNetworkChange(generation, body):
            paths.awaitChange(since: generation, body)
        case .shutdown:
            return false
        }
        return true
    }

    private func add(_ transfer: Transfer, paused: Bool) {
        paths.catchUp()
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
        curl_multi_add_handle(multi, handle.raw)
        if paused {
            transfer.isSuspended = true
            curl_easy_pause(handle.raw, CURLPAUSE_ALL)
        }
    }

    /// Ends a transfer that could not be handed to curl.
    private func failBeforeStart(_ transfer: Transfer, _ failure: CurlFailure?) {
        transfer.endBeforeStart()
        complete(transfer, outcome: TransferOutcome(head: nil, body: Data(), failure: failure,
                                                    wasCancelled: false, timings: CurlTimings()))
    }

    private func collectFinishedTransfers() {
        var remaining: Int32 = 0
        var finished = 0
        // After a burst (several transfers ending together, as over HTTP/2), the next starts
        // come as a burst too: the engine takes them whole, and none is driven by its caller.
        defer { if finished > 1 { keptConnection = nil } }
        var batch = CompletionBatch()
        swap(&batch, &completions)
        while let message = curl_multi_info_read(multi, &remaining) {
            var easy: UnsafeMutableRawPointer?
            var result = CURLE_OK
            guard afc_multi_message_done(message, &easy, &result) != 0, let easy,
                  let transfer = running[easy] else { continue }
            finished += 1
            // The only transfer running (so no other message waits either), with no command
            // waiting and no completion of this pass before it: nothing needs the engine thread
            // while it runs the completion (a new command waits that long).
            let idle = running.count == 1 && batch.isEmpty && commands.withLock { $0.pending.isEmpty }
            guard let outcome = end(transfer, result: result, cancelled: false) else { continue }
            transfer.delegate.transferDidComplete(transfer, outcome: outcome, engineIsIdle: idle, batch: &batch)
        }
        batch.send()
        swap(&batch, &completions)
    }

    /// Ends a running transfer outside a pass's collection (cancelled, timed out, torn down).
    private func finish(_ transfer: Transfer, result: CURLcode, cancelled: Bool) {
        guard let outcome = end(transfer, result: result, cancelled: cancelled) else { return }
        complete(transfer, outcome: outcome)
    }

    /// Hands an outcome to the transfer's delegate outside a pass's collection: its work is
    /// queued at once.
    private func complete(_ transfer: Transfer, outcome: TransferOutcome) {
        var batch = CompletionBatch()
        transfer.delegate.transferDidComplete(transfer, outcome: outcome, engineIsIdle: false, batch: &batch)
        batch.send()
    }

    /// Takes a running transfer off curl and returns how it ended; nil when it was not running.
    private func end(_ transfer: Transfer, result: CURLcode, cancelled: Bool) -> TransferOutcome? {
        guard case let .running(handle) = transfer.phase else { return nil }
        curl_multi_remove_handle(multi, handle.raw)
        running[handle.raw] = nil
        if transfer.idleWatch != nil { idleWatched.removeAll { $0 === transfer } }
        let outcome = transfer.makeOutcome(result: result, cancelled: cancelled)
        keptConnection = running.isEmpty ? EngineCommandQueue.KeptConnection(of: transfer, outcome: outcome) : nil
        if outcome.timings.httpVersion != 0 {
            // Not where curl may wait to multiplex (TLS, cleartext HTTP/2): split, an HTTP/2
            // burst sometimes stalled for a second (see `commandsPerPass`).
            splitsBursts = outcome.timings.httpVersion < Int(CURL_HTTP_VERSION_2_0) && !transfer.standing.pipeWait
        }
        handle.recycle()
        if pool.count < Self.maximumPooledHandles { pool.append(handle) }
        return outcome
    }

    private func tearDown() {
        for transfer in Array(running.values) {
            finish(transfer, result: CURLE_ABORTED_BY_CALLBACK, cancelled: true)
        }
        pool.removeAll()
        // `ended` is set: no wake-up starts any more; those counted before end in a moment.
        while wakeUpsUnderWay.load(ordering: .acquiring) > 0 { sched_yield() }
        curl_multi_cleanup(multi)
        paths.close()
        parking?.close()
    }
}
