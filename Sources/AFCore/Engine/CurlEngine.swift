import CCurl
import CCurlShim
import Foundation
import Synchronization

/// curl multi handles (usually one; see `CurlShard`) driven by one thread through curl's socket
/// interface: the thread waits in an epoll set (`EngineWaitSet`) holding every socket curl
/// watches, and hands curl only the sockets that are ready and the timers that are due, so a
/// pass costs what is active, not every transfer. Other threads enqueue commands and signal it,
/// with one exception: while no transfer runs, the engine waits without holding its lock
/// (parked), and a thread on the core the engine parked on that starts a plain transfer then
/// hands it to curl itself (`drive`), so the request goes out without waiting for the engine
/// thread to wake. Curl is only ever called by the holder of `multiLock`: the engine thread,
/// except while parked, or a driving thread.
final class CurlEngine: @unchecked Sendable {
    /// Limits applied to the multi handles.
    struct Limits: Sendable {
        var maximumConnectionsPerHost: Int
        var maximumCachedConnections: Int
        /// Whether connections follow the host's network (see `NetworkPathWatch`).
        var followsNetworkChanges = true
        var tcpKeepAlive: TCPKeepAlive? = .default

        /// How many multi handles the transfers may spread over: one per 512 connections allowed
        /// to a host, at most 8 (see `CurlShard`). Each takes an equal share of both limits, so
        /// together they keep them.
        var shards: Int { min(8, max(1, maximumConnectionsPerHost / 512)) }
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
    /// Ready descriptors taken from one wait.
    private static let readyPerWait = 256

    /// Where the engine thread waits; nil when it could not be made, and then no thread runs:
    /// every start fails (see `refuse`).
    private let waitSet: EngineWaitSet?
    /// Why the wait set could not be made.
    private let waitSetFailure: String
    /// The thread that runs the engine; nil without a wait set.
    private let thread: EngineThread?
    /// Held by whoever calls curl (see the type's description).
    private let multiLock = NSLock()
    /// The engine's connections and the network changes they follow.
    let paths: NetworkPathWatch
    private let commands = Protected(EngineCommandQueue())
    /// Signals counted under the commands' lock and not sent yet (see `enqueue`).
    private let wakeUpsUnderWay = Atomic<Int>(0)
    /// Resumptions of tasks awaiting a response, held while the engine thread runs a completion
    /// inside a task's queue.
    let deferredResumptions = DeferredResumptions()

    /// Transfers their callers handed to curl themselves (for tests).
    private let drivenStarts = Atomic<Int>(0)
    var drivenStartCount: Int { drivenStarts.load(ordering: .relaxed) }
    /// Whether a caller runs on the parked engine's core, given that core (see
    /// `EngineCommandQueue.callerSharesCore`; tests stand in for the scheduler with it).
    var callerSharesCore: @Sendable (Int32) -> Bool {
        get { commands.withLock { $0.callerSharesCore } }
        set { commands.withLock { $0.callerSharesCore = newValue } }
    }
    /// The longest the engine waits, in milliseconds, when nothing is due sooner (a second;
    /// tests make it long, so that a missing wake-up shows as a hang).
    let longestWait = Atomic<Int32>(1000)
    /// The descriptor of the engine's epoll set, nil without one (for tests).
    var epollDescriptor: Int32? { waitSet?.epoll }
    /// How many multi handles have been made (for tests).
    var shardCount: Int {
        multiLock.lock()
        defer { multiLock.unlock() }
        return shards.count
    }

    /// Runs `body` once the engine is in `state` (`.parked` or `.watching`; now, if it is), for
    /// tests that need a command to find it so.
    func when(_ state: EngineCommandQueue.Waiting, _ body: @escaping @Sendable () -> Void) {
        if !commands.withLock({ $0.wait(for: state, body) }) { body() }
    }

    // State of the holder of `multiLock`: the engine thread, or a thread driving a start. Only
    // the lock holder reaches it, and no access to it calls out while it lasts, so it goes
    // without the runtime's exclusivity checks (about a hundred instructions an access, a dozen
    // accesses a request on the engine thread).
    @exclusivity(unchecked) private var running: [UnsafeMutableRawPointer: Transfer] = [:]
    /// The multi handles made so far, in the order they are offered new transfers.
    @exclusivity(unchecked) private var shards: ShardList
    /// The running transfers whose idle timeout the engine keeps (see `IdleWatch`).
    @exclusivity(unchecked) private var idleWatched: [Transfer] = []
    /// The pacing of the running transfers' byte counts.
    private let progressThrottle = ProgressThrottle()
    /// Easy handles of ended transfers, kept for the next ones (see `maximumPooledHandles`).
    @exclusivity(unchecked) private var pool: [EasyHandle] = []
    /// Whether the last transfer to finish with a response ran over HTTP/1 where curl does not
    /// wait to multiplex (see `commandsPerPass`); until one did, bursts are taken whole.
    @exclusivity(unchecked) private var splitsBursts = false
    /// The connection the last transfer to end left in curl's cache, when none other runs;
    /// forgotten once the engine waits for nothing for a while (it may be closed by then).
    @exclusivity(unchecked) private var keptConnection: EngineCommandQueue.KeptConnection?
    /// The completions of the engine's pass, queued at its end (kept for its storage).
    @exclusivity(unchecked) private var completions = CompletionBatch()

    /// How many multi handles there may be, and each one's share of the limits.
    private let shardLimit: Int
    private let shardConnectionsPerHost: Int
    private let shardCachedConnections: Int

    init(limits: Limits, name: String) {
        _ = Self.globalInit
        shardLimit = limits.shards
        shards = ShardList(capacity: shardLimit)
        shardConnectionsPerHost = max(1, limits.maximumConnectionsPerHost / shardLimit)
        shardCachedConnections = max(1, limits.maximumCachedConnections / shardLimit)
        paths = NetworkPathWatch(follows: limits.followsNetworkChanges, keepAlive: limits.tcpKeepAlive)
        waitSet = EngineWaitSet()
        waitSetFailure = waitSet == nil ? String(cString: strerror(errno)) : ""
        thread = waitSet == nil ? nil : EngineThread(name: name)
        guard let waitSet else {
            // Nothing will use the network monitor or the socket set (see `refuse`).
            paths.close()
            return
        }
        shards.append(makeShard(waitSet: waitSet))
        // The thread keeps the engine alive until `run()` returns after a shutdown.
        thread?.start { [self] in run(waitSet: waitSet) }
    }

    /// Adds `transfer` to a multi handle.
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

    /// Cancels every transfer and ends the engine thread; later commands are ignored. `done`
    /// runs once the thread has let go of curl, its connections and its descriptors, and has
    /// ended: on a thread that waited for that, or at once when it happened already (or the
    /// engine never had a thread).
    func shutdown(then done: (@Sendable () -> Void)? = nil) {
        if let done {
            let tornDown = waitSet == nil || commands.withLock { queue in
                if !queue.tornDown { queue.tearDownWaiters.append(done) }
                return queue.tornDown
            }
            if tornDown { done() }
        }
        enqueue(.shutdown)
    }

    private func enqueue(_ command: EngineCommand) {
        guard let waitSet else { return refuse(command) }
        // A signal is sent after the lock is let go: sent under it, the engine woke only to wait
        // for the lock. It is counted under the lock, and the engine closes its eventfd only
        // once no counted signal is under way.
        let next = commands.withLock { queue in
            let next = queue.accept(command, waitSet: waitSet)
            if case .signal = next { wakeUpsUnderWay.add(1, ordering: .relaxed) }
            return next
        }
        switch next {
        case .nothing:
            break
        case .signal:
            waitSet.signal()
            wakeUpsUnderWay.subtract(1, ordering: .releasing)
        case let .drive(transfer, shard):
            drive(transfer, on: shard, waitSet: waitSet)
        }
    }

    /// Without its wait set the engine has no thread: a start fails at once, a wait for the
    /// network ends at once, and the other commands act on transfers that never start.
    private func refuse(_ command: EngineCommand) {
        multiLock.lock()
        defer { multiLock.unlock() }
        switch command {
        case let .start(transfer):
            guard case .waiting = transfer.phase else { return }
            failBeforeStart(transfer, CurlFailure(code: CURLE_FAILED_INIT,
                                                  message: "The engine could not open its epoll set: \(waitSetFailure)"))
        case let .awaitNetworkChange(_, body):
            body()
        default:
            _ = perform(command)
        }
    }

    /// Hands `transfer` to curl on the calling thread while the engine is parked, so its
    /// request goes out at once; then leaves the engine waiting (its wait set holds the
    /// transfer's socket, and its timer is set when curl or the transfer's idle limit is due
    /// before the engine would wake), or wakes it when curl needs more than that (see
    /// `EngineCommandQueue.endDrive`).
    private func drive(_ transfer: Transfer, on shard: Int, waitSet: EngineWaitSet) {
        drivenStarts.add(1, ordering: .relaxed)
        multiLock.lock()
        guard shard < shards.count else {
            // The engine ended meanwhile (it woke by itself and took a shutdown before this
            // caller took the lock): its wait set is closed, and the transfer never starts.
            if case .waiting = transfer.phase { failBeforeStart(transfer, nil, cancelled: true) }
            multiLock.unlock()
            return
        }
        // On the multi handle that holds the kept connection: on another, curl would open a
        // connection on this thread.
        if case let .waiting(paused) = transfer.phase {
            shards.with(shard) { add(transfer, paused: paused, into: $0) }
        }
        // curl sends the request when its timer runs: a transfer just added is due at once.
        var endedAtOnce = true
        if case let .running(handle) = transfer.phase, let shard = handle.shard {
            endedAtOnce = shard.runTimers() < shard.running
            endUnwatched(in: shard)
            if case .finished = transfer.phase { endedAtOnce = true }
        }
        // A connection off the host opened here is watched from now: the parked engine's own pass
        // would only see it after its wait.
        paths.syncWatch(waitSet)
        let now = DispatchTime.now().uptimeNanoseconds
        var due = min(refreshDeadlines(now: now), progressThrottle.nextDue)
        if let remaining = transfer.idleWatch?.remaining(now: now) { due = min(due, now + remaining) }
        let waitsOnNetwork = !endedAtOnce && due > now
        let waiters = commands.withLock {
            $0.endDrive(waitsOnNetwork: waitsOnNetwork, due: due, now: now, waitSet: waitSet)
        }
        multiLock.unlock()
        waiters.forEach { $0() }
    }

    // MARK: Engine thread

    /// The most commands the engine's list keeps room for between passes.
    private static let keptCommandCapacity = 256

    private func run(waitSet: EngineWaitSet) {
        Self.blockFileSizeSignal()
        let ready = UnsafeMutableBufferPointer<EngineWaitSet.Ready>.allocate(capacity: Self.readyPerWait)
        defer { ready.deallocate() }
        var readyCount = 0
        // The commands a pass takes. The queue and the engine trade lists (`swap`), so a pass
        // that takes the whole queue neither copies a list nor makes a new one.
        var pending: [EngineCommand] = []
        multiLock.lock()
        while true {
            // The sockets found ready by the last wait, before the commands: a command may close
            // a socket whose number a new connection then takes.
            for event in ready.prefix(readyCount) where event.multi != EngineWaitSet.own && Int(event.multi) < shards.count {
                shards.with(Int(event.multi)) { _ = $0.act(on: event.fd, what: event.what) }
            }
            readyCount = 0
            let limit = splitsBursts ? Self.commandsPerPass : Int.max
            let more = commands.withLock { queue -> Bool in
                if queue.pending.isEmpty { return false }
                guard queue.pending.count > limit, !queue.pending.contains(where: \.waitsToMultiplex) else {
                    swap(&queue.pending, &pending)
                    return false
                }
                pending.append(contentsOf: queue.pending.prefix(limit))
                queue.pending.removeFirst(limit)
                return true
            }
            for command in pending where !perform(command) {
                commands.withLock { $0.ended = true }
                tearDown(waitSet: waitSet)
                multiLock.unlock()
                // The end is reported once this thread is gone, from a thread that waits for it.
                DispatchQueue.global().async { [self] in
                    thread?.join()
                    let waiters = commands.withLock { queue in
                        queue.tornDown = true
                        defer { queue.tearDownWaiters = [] }
                        return queue.tearDownWaiters
                    }
                    waiters.forEach { $0() }
                }
                return
            }
            // A burst's list is let go rather than kept for good beside the queue's own.
            pending.removeAll(keepingCapacity: pending.capacity <= Self.keptCommandCapacity)
            runDueTimers()
            // Sockets a curl call of this pass could not add to the wait set (a socket's
            // events, a command's unpause, a timer).
            shards.forEach { endUnwatched(in: $0) }
            collectFinishedTransfers()
            // Commands left behind were queued before any new one, which would not wake the
            // engine: they are taken in the next pass, without waiting.
            var wait = expireIdleTransfers()
            let now = DispatchTime.now().uptimeNanoseconds
            let due = min(refreshDeadlines(now: now), progressThrottle.reportDue(now: now))
            if due != .max { wait = min(wait, Int32(clamping: (due - min(due, now) + 999_999) / 1_000_000)) }
            paths.syncWatch(waitSet)
            // With nothing running, the engine waits without its lock, so that the next start's
            // caller may send it at once (see `drive`).
            if !more, running.isEmpty, let waiters = commands.withLock({
                $0.park(until: now + UInt64(wait) * 1_000_000, connection: keptConnection, core: afc_current_cpu())
            }) {
                multiLock.unlock()
                waiters.forEach { $0() }
                readyCount = waitSet.wait(milliseconds: wait, into: ready)
                commands.withLock { $0.unpark(waitSet) }
                multiLock.lock()
                keptConnection = nil
            } else {
                readyCount = waitSet.wait(milliseconds: more ? 0 : wait, into: ready)
            }
            // The engine's own descriptors, before the next pass takes the commands: a signal is
            // cleared before the commands that sent it are taken (a later one signals again), and
            // the network's changes are taken in before the commands that came with them.
            for event in ready.prefix(readyCount) where event.multi == EngineWaitSet.own {
                if waitSet.isSignal(event) {
                    waitSet.clearSignal()
                } else if event.fd == paths.monitor {
                    paths.monitorIsReady()
                }
            }
        }
    }

    /// Lets each multi handle whose timer is due run it.
    private func runDueTimers() {
        let now = DispatchTime.now().uptimeNanoseconds
        guard refreshDeadlines(now: now) <= now else { return }
        shards.forEach { shard in
            if shard.deadline <= now { shard.runTimers() }
        }
    }

    /// Ends the transfers whose new socket the wait set refused in a curl call on `shard`:
    /// curl would wait on that socket until the transfer's timeout.
    private func endUnwatched(in shard: CurlShard) {
        shard.takeUnwatched { easy, reason in
            guard let transfer = running[easy], case let .running(handle) = transfer.phase, handle.shard === shard
            else { return }
            transfer.noteUnwatchedSocket(reason: reason)
            finish(transfer, result: CURLE_COULDNT_CONNECT, cancelled: false)
        }
    }

    /// Reads each multi handle's next deadline; returns the soonest.
    private func refreshDeadlines(now: UInt64) -> UInt64 {
        var soonest = UInt64.max
        shards.forEach { shard in
            shard.refreshDeadline(now: now)
            soonest = min(soonest, shard.deadline)
        }
        return soonest
    }

    private func makeShard(waitSet: EngineWaitSet) -> CurlShard {
        CurlShard(index: shards.count, waitSet: waitSet, maximumConnectionsPerHost: shardConnectionsPerHost,
                  maximumCachedConnections: shardCachedConnections)
    }

    /// Where a new transfer goes: the first multi handle with room for it (its share of the
    /// per-host limit), else a new one while there may be more, else the least busy.
    private func shardForNewTransfer() -> CurlShard {
        var leastBusy = 0
        var leastRunning = Int.max
        for index in 0..<shards.count {
            let busy = shards.with(index) { $0.running }
            if busy < shardConnectionsPerHost { return shards.shard(at: index) }
            if busy < leastRunning { (leastBusy, leastRunning) = (index, busy) }
        }
        if shards.count < shardLimit, let waitSet {
            let shard = makeShard(waitSet: waitSet)
            shards.append(shard)
            return shard
        }
        return shards.shard(at: leastBusy)
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
                unpause(transfer, handle)
            case .waiting: transfer.phase = .waiting(paused: false)
            case .finished: break
            }
        case let .resumeFlow(transfer):
            if case let .running(handle) = transfer.phase, !transfer.isSuspended { unpause(transfer, handle) }
        case let .awaitNetworkChange(generation, body):
            paths.awaitChange(since: generation, body)
        case .shutdown:
            return false
        }
        return true
    }

    /// Lets curl go on with a paused transfer. curl hands over the data it held back inside this
    /// call; when the transfer refuses it (a decompression bomb, a full disk), curl returns the
    /// error without scheduling the transfer again, and only a pass over every transfer would
    /// find it: it is ended here. A transfer without a connection yet (curl's "bad argument")
    /// holds nothing back and was never paused by curl.
    private func unpause(_ transfer: Transfer, _ handle: EasyHandle) {
        let result = curl_easy_pause(handle.raw, CURLPAUSE_CONT)
        if result != CURLE_OK, result != CURLE_BAD_FUNCTION_ARGUMENT { finish(transfer, result: result, cancelled: false) }
    }

    private func add(_ transfer: Transfer, paused: Bool, into chosen: CurlShard? = nil) {
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
        if transfer.reportsProgress { transfer.progressThrottle = progressThrottle }
        if transfer.idleWatch != nil {
            transfer.idleWatch?.noteActivity()
            idleWatched.append(transfer)
        }
        let shard = chosen ?? shardForNewTransfer()
        handle.shard = shard
        shard.add(handle)
        if paused {
            transfer.isSuspended = true
            curl_easy_pause(handle.raw, CURLPAUSE_ALL)
        }
    }

    /// Ends a transfer that could not be handed to curl (`cancelled`: that the engine ended).
    private func failBeforeStart(_ transfer: Transfer, _ failure: CurlFailure?, cancelled: Bool = false) {
        transfer.endBeforeStart()
        complete(transfer, outcome: TransferOutcome(head: nil, body: Data(), failure: failure,
                                                    wasCancelled: cancelled, timings: CurlTimings()))
    }

    private func collectFinishedTransfers() {
        var finished = 0
        // After a burst (several transfers ending together, as over HTTP/2), the next starts
        // come as a burst too: the engine takes them whole, and none is driven by its caller.
        defer { if finished > 1 { keptConnection = nil } }
        var batch = CompletionBatch()
        swap(&batch, &completions)
        shards.forEach { shard in
            shard.takeFinished { easy, result in
                guard let transfer = running[easy] else { return }
                finished += 1
                // The only transfer running (so no other message waits either), with no command
                // waiting and no completion of this pass before it: nothing needs the engine
                // thread while it runs the completion (a new command waits that long).
                let idle = running.count == 1 && batch.isEmpty && commands.withLock { $0.pending.isEmpty }
                guard let outcome = end(transfer, result: result, cancelled: false) else { return }
                transfer.delegate.transferDidComplete(transfer, outcome: outcome, engineIsIdle: idle, batch: &batch)
            }
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
        guard case let .running(handle) = transfer.phase, let shard = handle.shard else { return nil }
        shard.remove(handle)
        handle.shard = nil
        // Only now, once curl can call none of its callbacks: they reach the transfer unretained
        // (see `withTransfer`), kept alive by this table.
        running[handle.raw] = nil
        if transfer.idleWatch != nil { idleWatched.removeAll { $0 === transfer } }
        // The last counts go before the completion.
        transfer.reportHeldProgress()
        let outcome = transfer.makeOutcome(result: result, cancelled: cancelled)
        keptConnection = running.isEmpty
            ? EngineCommandQueue.KeptConnection(of: transfer, outcome: outcome, shard: shard.index) : nil
        if outcome.timings.httpVersion != 0 {
            // Not where curl may wait to multiplex (TLS, cleartext HTTP/2): split, an HTTP/2
            // burst sometimes stalled for a second (see `commandsPerPass`).
            splitsBursts = outcome.timings.httpVersion < Int(CURL_HTTP_VERSION_2_0) && !transfer.standing.pipeWait
        }
        handle.recycle()
        if pool.count < Self.maximumPooledHandles { pool.append(handle) }
        return outcome
    }

    private func tearDown(waitSet: EngineWaitSet) {
        for transfer in Array(running.values) {
            finish(transfer, result: CURLE_ABORTED_BY_CALLBACK, cancelled: true)
        }
        // No pass follows to take the ended transfers off.
        _ = progressThrottle.reportDue(now: .max)
        pool.removeAll()
        shards.forEach { $0.close() }
        shards.removeAll()
        // `ended` is set: no signal starts any more; those counted before end in a moment.
        while wakeUpsUnderWay.load(ordering: .acquiring) > 0 { sched_yield() }
        paths.close()
        waitSet.close()
    }
}
