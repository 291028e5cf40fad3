import CCurl
import CCurlShim

/// The engine's commands not taken yet, and where its thread waits for them (behind
/// `CurlEngine`'s lock). Once the engine has ended, no command is accepted (its multi handle is
/// gone).
struct EngineCommandQueue {
    /// What the engine thread is doing, for a thread with a command.
    enum Waiting {
        /// In a pass, or waiting with transfers running: a command signals its wait set.
        case busy
        /// Parked (waiting without its lock, nothing running): a start may be driven by its
        /// caller (one on the engine's core), any other command signals the wait set.
        case parked
        /// Parked while a caller drives a start; commands wait for that caller, who wakes the
        /// engine if it needs to.
        case driving
        /// Parked, waiting on the network for the transfer a caller drove.
        case watching
        /// Parked and woken: commands just wait for it.
        case woken
    }

    /// A connection curl keeps for reuse: where the last transfer went, and how.
    struct KeptConnection {
        /// The URL of the transfer that left the connection.
        let url: String
        /// The length in bytes of `url`'s scheme and authority (`scheme://host:port`).
        let originLength: Int
        let standing: StandingOptions
        /// The index of the multi handle whose cache holds the connection.
        let shard: Int

        /// Whether `transfer` goes to the same place, the same way (so curl reuses this
        /// connection rather than open one).
        func serves(_ transfer: Transfer) -> Bool {
            guard transfer.standing == standing else { return false }
            let next = transfer.spec.url
            // The same URL again (a poll, a client's next call) is the same origin.
            if next == url { return true }
            return next.withUTF8Bytes { next in
                url.withUTF8Bytes { kept in
                    Self.originLength(of: next) == originLength && next[..<originLength].elementsEqual(kept[..<originLength])
                }
            }
        }

        /// The connection `transfer` leaves in curl's cache, if any: it ended well, over HTTP/1.1
        /// or later, without the server closing the connection. Worked out on the engine thread
        /// as each sequential request ends, so over bytes: Strings made and compared here would
        /// cost more than the rest of a request's completion.
        init?(of transfer: Transfer, outcome: TransferOutcome, shard: Int) {
            guard outcome.failure == nil, !outcome.wasCancelled, !transfer.standing.freshConnection,
                  outcome.timings.httpVersion >= Int(CURL_HTTP_VERSION_1_1),
                  outcome.head?.withValue(for: "connection", Self.namesClose) != true,
                  case let url = transfer.spec.url,
                  let originLength = url.withUTF8Bytes(Self.originLength(of:)) else { return nil }
            self.url = url
            self.originLength = originLength
            standing = transfer.standing
            self.shard = shard
        }

        /// Whether a `Connection` field's value lists the `close` option (RFC 9112 §9.6; options
        /// are comma-separated tokens, compared without case).
        static func namesClose(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
            var start = 0
            while start <= value.count {
                var end = start
                while end < value.count, value[end] != UInt8(ascii: ",") { end += 1 }
                let first = value.trimmedStart(from: start, to: end)
                let option = UnsafeBufferPointer(rebasing: value[first..<value.trimmedEnd(from: first, to: end)])
                if "close".withUTF8Bytes(option.equalsIgnoringASCIICase) { return true }
                start = end + 1
            }
            return false
        }

        /// The length in bytes of `url` up to the end of its authority (`scheme://host:port`),
        /// or nil without `://`.
        static func originLength(of url: UnsafeBufferPointer<UInt8>) -> Int? {
            guard let colon = url.firstIndex(of: UInt8(ascii: ":")), colon + 2 < url.count,
                  url[colon + 1] == UInt8(ascii: "/"), url[colon + 2] == UInt8(ascii: "/") else { return nil }
            return url[(colon + 3)...].firstIndex {
                $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
            } ?? url.count
        }
    }

    /// What the thread that queued a command does next.
    enum Next {
        case nothing
        /// Signal the engine's wait set (counted in `CurlEngine.wakeUpsUnderWay`).
        case signal
        /// Hand the transfer to curl itself, on the multi handle of the kept connection
        /// (`CurlEngine.drive`).
        case drive(Transfer, shard: Int)
    }

    var pending: [EngineCommand] = []
    var ended = false
    /// Set once the ended engine has let go of curl, its connections and its descriptors.
    var tornDown = false
    /// Run once the engine is torn down (see `CurlEngine.shutdown(then:)`).
    var tearDownWaiters: [@Sendable () -> Void] = []
    private(set) var waiting = Waiting.busy
    /// When the parked engine wakes by itself (`DispatchTime` nanoseconds).
    private var parkedUntil: UInt64 = 0
    /// Whether a driver armed the parking's timer for this wait.
    private var timerArmed = false
    /// Whether a caller was handed a start to drive and has not ended its drive. The engine may
    /// wake and park again before that caller takes the engine's lock: it then parks as
    /// `.driving`, so that no second caller drives meanwhile and the first one's `endDrive`
    /// decides as usual.
    private var driverUnderWay = false
    /// The connection the last transfer left while parked: only a start that goes there is
    /// driven by its caller, so that a caller never makes a connection (sockets are made by
    /// the engine thread, in its network namespace; a connection being made also runs TLS and
    /// trust evaluation).
    private var keptConnection: KeptConnection?
    /// The CPU the engine thread last ran on before it parked (-1 when unknown).
    private var parkedCore: Int32 = -1
    /// Whether the calling thread runs on the given CPU, the one the engine parked on: only then
    /// does it drive its start. A caller on another core would wake a local server from there,
    /// and the server and the engine thread would then trade cores from one request to the next
    /// (a migration each, their caches cold each time); the engine sends from its own core
    /// instead. When the CPU cannot be read (-1 on both sides), every caller drives. Runs under
    /// the engine's command lock, so it must take none of the engine's locks. Tests stand in for
    /// the scheduler with it.
    var callerSharesCore: @Sendable (Int32) -> Bool = { $0 == afc_current_cpu() }
    /// Run when the engine is next in their state (see `CurlEngine.when`).
    private var stateWaiters: [(state: Waiting, body: @Sendable () -> Void)] = []

    /// Takes `command` in. The engine takes the queue whole, or in slices without waiting in
    /// between until it is empty: only the command that finds it empty wakes a busy engine (which
    /// clears the signal before it takes the queue). A parked engine is signalled here, under the
    /// lock that its `unpark` takes to clear the signal: a signal never outlives the wait it was
    /// meant for.
    mutating func accept(_ command: EngineCommand, waitSet: EngineWaitSet) -> Next {
        guard !ended else { return .nothing }
        switch waiting {
        case .busy:
            defer { pending.append(command) }
            return pending.isEmpty ? .signal : .nothing
        case .parked:
            // The core first: it is one read, and a start from another core is the usual miss.
            if let transfer = command.drivableTransfer, let kept = keptConnection, callerSharesCore(parkedCore),
               kept.serves(transfer) {
                waiting = .driving
                driverUnderWay = true
                return .drive(transfer, shard: kept.shard)
            }
            fallthrough
        case .watching:
            pending.append(command)
            wake(waitSet)
            return .nothing
        case .driving, .woken:
            pending.append(command)
            return .nothing
        }
    }

    /// Parks the engine until `deadline` unless a command waits; nil then, else what waited
    /// for it to park. `connection`: the one the last transfer left in curl's cache; `core`: the
    /// CPU the engine thread runs on.
    mutating func park(until deadline: UInt64, connection: KeptConnection?, core: Int32) -> [@Sendable () -> Void]? {
        guard pending.isEmpty else { return nil }
        waiting = driverUnderWay ? .driving : .parked
        parkedCore = core
        parkedUntil = deadline
        keptConnection = connection
        return driverUnderWay ? [] : takeWaiters(for: .parked)
    }

    /// The parked engine woke: commands signal it as a busy one again; its signal and timer are
    /// cleared, those that were set (both only ever are under this lock, while it is parked).
    mutating func unpark(_ waitSet: EngineWaitSet) {
        if waiting == .woken { waitSet.clearSignal() }
        if timerArmed { waitSet.disarm() }
        waiting = .busy
        timerArmed = false
        keptConnection = nil
    }

    /// Wakes the parked engine: the one signal of this wait (see `unpark`).
    private mutating func wake(_ waitSet: EngineWaitSet) {
        waiting = .woken
        waitSet.signal()
    }

    /// A driving thread is done with curl: the engine goes on waiting (its wait set holds the
    /// transfer's socket; its timer is set when `due` comes before its own wake-up) when curl
    /// waits on the network alone and no command came meanwhile, else it is woken. Returns what
    /// waited for the engine to watch.
    mutating func endDrive(waitsOnNetwork: Bool, due: UInt64, now: UInt64,
                           waitSet: EngineWaitSet) -> [@Sendable () -> Void] {
        driverUnderWay = false
        guard waiting == .driving else {
            // The engine woke meanwhile (its own timeout, or the transfer's socket): busy, it
            // takes over once the driver lets go. (Parked again, it waits as `.driving`.)
            return []
        }
        guard waitsOnNetwork, pending.isEmpty else {
            wake(waitSet)
            return []
        }
        if due < parkedUntil {
            waitSet.arm(milliseconds: Int((due - now + 999_999) / 1_000_000))
            timerArmed = true
        }
        waiting = .watching
        return takeWaiters(for: .watching)
    }

    /// Keeps `body` for when the engine is next in `state`; false if it is in it now.
    mutating func wait(for state: Waiting, _ body: @escaping @Sendable () -> Void) -> Bool {
        guard waiting != state else { return false }
        stateWaiters.append((state, body))
        return true
    }

    private mutating func takeWaiters(for state: Waiting) -> [@Sendable () -> Void] {
        guard !stateWaiters.isEmpty else { return [] }
        let due = stateWaiters.filter { $0.state == state }.map(\.body)
        stateWaiters.removeAll { $0.state == state }
        return due
    }
}
