@testable import AFCore
import CCurl
import Foundation
import Testing

/// The engine's command queue as a state machine, driven through the orders of events that the
/// engine thread and callers can produce (no server: transfers that never run).
struct EngineCommandQueueTests {
    final class Listener: TransferDelegate {
        func transferDidReceiveHead(_ transfer: Transfer, head: ResponseHead) {}
        func transferDidReceive(_ transfer: Transfer, data: Data) {}
        func transferDidProgress(_ transfer: Transfer, progress: TransferProgress) {}
        func transferDidComplete(_ transfer: Transfer, outcome: TransferOutcome, engineIsIdle: Bool,
                                 batch: inout CompletionBatch) {}
    }

    private let listener = Listener()
    private let configuration = TaskConfiguration(.default, environment: [:])

    private func transfer(_ url: String = "http://127.0.0.1:8080/bench.json") -> Transfer {
        let spec = TransferSpec(url: url, requestURL: URL(string: url), method: "GET", headerLines: [], body: nil,
                                uploadFile: nil, uploadStream: nil, uploadSegments: nil, download: nil, bodyStream: nil,
                                streamCopyLimit: nil, idleTimeout: 60, decompressionLimit: nil,
                                standing: configuration.standingOptions(scheme: "http", idleTimeout: 60, socketPath: nil),
                                credential: nil, trust: nil, unsafe: nil, responseGate: nil)
        return Transfer(spec: spec, delegate: listener)
    }

    /// The connection a finished HTTP/1.1 exchange of `transfer` leaves, if any.
    private func connection(leftBy transfer: Transfer, connectionField: String? = nil) -> EngineCommandQueue.KeptConnection? {
        var timings = CurlTimings()
        timings.httpVersion = Int(CURL_HTTP_VERSION_1_1)
        let head = ResponseHead(statusCode: 200, httpVersion: "HTTP/1.1",
                                headers: [("Content-Length", "0")] + (connectionField.map { [("Connection", $0)] } ?? []))
        let outcome = TransferOutcome(head: head, body: Data(), failure: nil, wasCancelled: false, timings: timings)
        return EngineCommandQueue.KeptConnection(of: transfer, outcome: outcome, shard: 0)
    }

    private func keptConnection(of transfer: Transfer) throws -> EngineCommandQueue.KeptConnection {
        try #require(connection(leftBy: transfer))
    }

    @Test func aKeptConnectionServesTransfersToItsOriginOnly() throws {
        let kept = try keptConnection(of: transfer("http://127.0.0.1:8080/bench.json"))
        #expect(kept.serves(transfer("http://127.0.0.1:8080/bench.json")))
        #expect(kept.serves(transfer("http://127.0.0.1:8080/other?page=2")))
        #expect(kept.serves(transfer("http://127.0.0.1:8080")))
        #expect(!kept.serves(transfer("http://127.0.0.1:8081/bench.json")))
        #expect(!kept.serves(transfer("http://127.0.0.10:8080/bench.json")))
        #expect(!kept.serves(transfer("http://127.0.0.1:80/bench.json")))
    }

    @Test func noConnectionIsKeptWhenTheServerSaysItCloses() {
        #expect(connection(leftBy: transfer(), connectionField: "keep-alive") != nil)
        #expect(connection(leftBy: transfer(), connectionField: "Upgrade, close") == nil)
    }

    /// A queue whose engine parked with a kept connection, and a start to that connection that
    /// its caller was handed to drive; nil (with an issue recorded) if it was not.
    private func queueWithADriver(_ waitSet: EngineWaitSet) throws -> (EngineCommandQueue, EngineCommandQueue.KeptConnection)? {
        var queue = EngineCommandQueue()
        // Whichever core this thread runs on (see `callerOnAnotherCoreWakesTheEngine`).
        queue.callerSharesCore = { _ in true }
        let kept = try keptConnection(of: transfer())
        _ = queue.park(until: .max, connection: kept, core: 0)
        guard case .drive = queue.accept(.start(transfer()), waitSet: waitSet) else {
            Issue.record("the start was not handed to its caller")
            return nil
        }
        return (queue, kept)
    }

    /// A start from a thread off the engine's core is the engine's: the parked engine is woken
    /// for it. The rule is asked about the core the engine parked on.
    @Test func callerOnAnotherCoreWakesTheEngine() throws {
        let waitSet = try #require(EngineWaitSet())
        defer { waitSet.close() }
        var queue = EngineCommandQueue()
        let asked = Protected<[Int32]>([])
        queue.callerSharesCore = { core in
            asked.withLock { $0.append(core) }
            return false
        }
        _ = queue.park(until: .max, connection: try keptConnection(of: transfer()), core: 3)
        guard case .nothing = queue.accept(.start(transfer()), waitSet: waitSet) else {
            Issue.record("a caller off the engine's core was handed the start")
            return
        }
        #expect(queue.waiting == .woken)
        #expect(queue.pending.count == 1)
        #expect(asked.value == [3])
    }

    @Test func aParkedEngineLetsAStartToTheKeptConnectionBeDrivenByItsCaller() throws {
        let waitSet = try #require(EngineWaitSet())
        defer { waitSet.close() }
        guard var queue = try queueWithADriver(waitSet)?.0 else { return }
        #expect(queue.waiting == .driving)
        _ = queue.endDrive(waitsOnNetwork: true, due: .max, now: 0, waitSet: waitSet)
        #expect(queue.waiting == .watching)
    }

    /// The engine may wake by itself after a caller was handed a start but before that caller
    /// takes the engine's lock, run a pass with nothing in it and park again: a second start
    /// then waits for the first caller, who wakes the engine for it, rather than being driven
    /// by its own caller at the same time.
    @Test func aStartWhileACallerDrivesWaitsEvenIfTheEngineParkedAgain() throws {
        let waitSet = try #require(EngineWaitSet())
        defer { waitSet.close() }
        guard let (driving, kept) = try queueWithADriver(waitSet) else { return }
        var queue = driving
        queue.unpark(waitSet)
        #expect(queue.park(until: .max, connection: kept, core: 0) != nil)
        guard case .nothing = queue.accept(.start(transfer()), waitSet: waitSet) else {
            Issue.record("a second caller drives while the first one does")
            return
        }
        #expect(queue.pending.count == 1)
        _ = queue.endDrive(waitsOnNetwork: true, due: .max, now: 0, waitSet: waitSet)
        #expect(queue.waiting == .woken, "the driver wakes the engine for the start that waited")
        queue.unpark(waitSet)
        #expect(queue.waiting == .busy)
    }

    /// Woken by itself while a caller drives, the engine is busy when the caller ends: it takes
    /// the transfer over, and nothing wakes it again.
    @Test func aDriveEndingWhileTheEngineIsAwakeLeavesItToTheEngine() throws {
        let waitSet = try #require(EngineWaitSet())
        defer { waitSet.close() }
        guard var queue = try queueWithADriver(waitSet)?.0 else { return }
        queue.unpark(waitSet)
        _ = queue.endDrive(waitsOnNetwork: true, due: .max, now: 0, waitSet: waitSet)
        #expect(queue.waiting == .busy)
        // The next park is a plain one: no driver is under way.
        _ = queue.park(until: .max, connection: nil, core: 0)
        #expect(queue.waiting == .parked)
    }
}
