@testable import AFCore
import AFTestSupport
import CCurlShim
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// While no transfer runs, the engine thread waits outside curl, and the thread that starts a
/// plain transfer on the connection the last one left, on the core the engine waits on, hands it
/// to curl itself (the request goes out without waiting for the engine to wake), then leaves the
/// engine watching that connection. The sessions here count every caller as on the engine's
/// core unless a test says otherwise (which core a thread runs on is the scheduler's choice),
/// and make the engine wait two minutes when nothing is due, so a wake-up it misses shows as a
/// test over its time limit.
@Suite(.timeLimit(.minutes(1))) struct DrivenStartTests {
    /// A session whose engine waits as long as nothing is due. Without an idle limit, curl's
    /// once-a-second speed check is off too, and only a wake-up ends the engine's wait.
    func patientSession(idleLimit: Bool = true, callersShareEngineCore: Bool = true) -> Session {
        let configuration = URLSessionConfiguration.af.default
        if !idleLimit { configuration.timeoutIntervalForRequest = 0 }
        let session = makeSession(configuration: configuration)
        session.engine.longestWait.store(120_000, ordering: .relaxed)
        session.engine.callerSharesCore = { _ in callersShareEngineCore }
        return session
    }

    /// Returns once `session`'s engine is in `state`, or when the test is cancelled (its time
    /// limit), so a state never reached fails the test instead of hanging the run.
    func engine(of session: Session, reaches state: EngineCommandQueue.Waiting) async {
        let once = Once()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                once.set(continuation)
                session.engine.when(state) { once.resume() }
            }
        } onCancel: {
            once.resume()
        }
    }

    @Test func requestsMadeWhileNothingRunsAreSentByTheirCallers() async throws {
        let session = patientSession()
        for round in 1...5 {
            await engine(of: session, reaches: .parked)
            let data = try await session.request(Server.http("/bench.json")).validate().serializingData().value
            #expect(data == Data(#"{"hello":"world"}"#.utf8))
            // The first one made the connection, on the engine thread.
            #expect(session.engine.drivenStartCount == round - 1)
        }
    }

    @Test func aCallerOnAnotherCoreLeavesItsStartToTheEngine() async throws {
        // Sent from another core, the request would wake a local server there, and the server
        // and the engine would trade cores from one request to the next.
        let session = patientSession(callersShareEngineCore: false)
        for _ in 1...3 {
            await engine(of: session, reaches: .parked)
            let data = try await session.request(Server.http("/bench.json")).validate().serializingData().value
            #expect(data == Data(#"{"hello":"world"}"#.utf8))
        }
        #expect(session.engine.drivenStartCount == 0)
    }

    @Test func byDefaultACallerSharesTheCoreItRunsOn() {
        let rule = EngineCommandQueue().callerSharesCore
        #expect(!rule(Int32.max))
        // The thread may move to another core between the two reads: one of three tries will do.
        #expect((0..<3).contains { _ in rule(afc_current_cpu()) })
    }

    @Test func aCallbackRequestToo() async throws {
        let session = patientSession()
        _ = try await session.request(Server.http("/bench.json")).serializingData().value
        await engine(of: session, reaches: .parked)
        // Handed over behind a lock: the answer is often back before the task could suspend, and
        // a continuation resumed that early orders the two threads only through the concurrency
        // runtime's atomics, which the thread sanitizer does not see.
        let received = Protected<AFDataResponse<Data>?>(nil)
        let answered = OneShot()
        session.request(Server.http("/bench.json")).validate().responseData(queue: .global()) { response in
            received.withLock { $0 = response }
            answered.fire()
        }
        await answered.wait()
        let response = try #require(received.value)
        #expect(response.response?.statusCode == 200)
        #expect(session.engine.drivenStartCount == 1)
    }

    @Test func connectionsAreMadeByTheEngine() async throws {
        // Sockets are made on the engine thread (in its network namespace): a start that needs a
        // new connection, or one to another origin than the last, is left to the engine.
        let session = patientSession()
        await engine(of: session, reaches: .parked)
        _ = try await session.request(Server.faults("/connections")).serializingData().value
        await engine(of: session, reaches: .parked)
        _ = try await session.request(Server.http("/bench.json")).serializingData().value
        #expect(session.engine.drivenStartCount == 0)
        await engine(of: session, reaches: .parked)
        _ = try await session.request(Server.http("/bench.json")).serializingData().value
        #expect(session.engine.drivenStartCount == 1)
    }

    @Test func aConnectionTheServerClosesIsLeftToTheEngine() async throws {
        // A response with `Connection: close` (an option among others, in any case) leaves no
        // connection behind: the next start would need a new one, which only the engine makes.
        let session = patientSession()
        func get(_ key: String, _ query: String = "") async throws {
            await engine(of: session, reaches: .parked)
            _ = try await session.request(Server.faults("/cacheable/driven-\(key)\(query)")).validate().serializingData().value
        }
        try await get("first")
        try await get("closing", "?h=Connection:%20keep-alive,%20Close")
        #expect(session.engine.drivenStartCount == 1)
        try await get("after-close")
        #expect(session.engine.drivenStartCount == 1)
        try await get("kept")
        #expect(session.engine.drivenStartCount == 2)
    }

    @Test func aDrivenRequestTimesOutOnTime() async throws {
        // Its idle limit is due long before the engine would wake by itself: the caller sets the
        // engine's timer.
        // (The first request makes the connection, with the same options. Its 0.25 s limit can
        // pass while a loaded machine runs the whole suite: it is tried again until answered.)
        let session = patientSession()
        var first = try URLRequest(url: Server.faults("/connections"), method: .get)
        first.timeoutInterval = 0.25
        var connected = false
        for _ in 0..<40 where !connected {
            connected = (try? await session.request(first).serializingData().value) != nil
        }
        try #require(connected)
        await engine(of: session, reaches: .parked)
        let driven = session.engine.drivenStartCount
        var request = try URLRequest(url: Server.faults("/stall"), method: .get)
        request.timeoutInterval = 0.25
        let error = await session.request(request).serializingData(automaticallyCancelling: true).response.error
        #expect((error?.underlyingError as? URLError)?.code == .timedOut)
        #expect(session.engine.drivenStartCount == driven + 1)
    }

    /// A request to the faults server that never gets an answer, sent by its caller on the
    /// connection a first request made, and watched by the engine once this returns. The
    /// session has no idle limit: only a wake-up ends the engine's wait.
    struct Stalled {
        let session: Session
        let request: DataRequest
        let response: DataTask<Data>
        /// Starts the engine drove before the stalled request.
        let drivenBefore: Int
    }

    func stalledRequest() async throws -> Stalled {
        let session = patientSession(idleLimit: false)
        _ = try await session.request(Server.faults("/connections")).serializingData().value
        await engine(of: session, reaches: .parked)
        let driven = session.engine.drivenStartCount
        async let watching: Void = engine(of: session, reaches: .watching)
        let request = session.request(Server.faults("/stall"))
        let response = request.serializingData(automaticallyCancelling: true)
        await watching
        return Stalled(session: session, request: request, response: response, drivenBefore: driven)
    }

    @Test func cancellingARequestTheEngineWatchesWakesIt() async throws {
        let stalled = try await stalledRequest()
        stalled.request.cancel()
        #expect(await stalled.response.response.error?.isExplicitlyCancelledError == true)
        #expect(stalled.session.engine.drivenStartCount == stalled.drivenBefore + 1)
        // The engine ended the transfer (the request itself ends as cancelled either way): with
        // nothing running, it parks again.
        await engine(of: stalled.session, reaches: .parked)
    }

    @Test func aRequestMadeWhileTheEngineWatchesWakesIt() async throws {
        let stalled = try await stalledRequest()
        let data = try await stalled.session.request(Server.http("/bench.json"))
            .serializingData(automaticallyCancelling: true).value
        #expect(!data.isEmpty)
        #expect(stalled.session.engine.drivenStartCount == stalled.drivenBefore + 1)
        stalled.request.cancel()
        _ = await stalled.response.response
    }

    @Test func fileUploadsAndDownloadsAreLeftToTheEngine() async throws {
        let session = patientSession()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("af-driven-\(UUID().uuidString)")
        try Data("file body".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try await session.request(Server.http("/bench.json")).serializingData().value
        await engine(of: session, reaches: .parked)
        _ = try await session.upload(file, to: Server.http("/anything"), method: .put).serializingData().value
        await engine(of: session, reaches: .parked)
        let downloaded = try await session.download(Server.http("/bench.json")).serializingDownloadedFileURL().value
        try? FileManager.default.removeItem(at: downloaded)
        #expect(session.engine.drivenStartCount == 0)
        // A body held in memory is sent by its caller like any other request.
        await engine(of: session, reaches: .parked)
        _ = try await session.upload(Data("memory body".utf8), to: Server.http("/anything"), method: .put)
            .serializingData().value
        #expect(session.engine.drivenStartCount == 1)
    }

    @Test func requestsFromManyThreadsWhileTheEngineParksAllComplete() async throws {
        let session = patientSession()
        // A connection left and the engine parked: the first of the starts below is driven
        // whatever the timing; the later ones meet the engine in every state.
        _ = try await session.request(Server.http("/bench.json")).serializingData().value
        await engine(of: session, reaches: .parked)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var received = 0
                    for _ in 0..<25 {
                        received += try await session.request(Server.http("/bench.json")).validate()
                            .serializingData().value.count
                    }
                    return received
                }
            }
            for try await received in group { #expect(received == 25 * 17) }
        }
        #expect(session.engine.drivenStartCount > 0)
    }
}

/// A continuation resumed once, by whichever comes first.
private final class Once: Sendable {
    private let state = Protected<(continuation: CheckedContinuation<Void, Never>?, resumed: Bool)>((nil, false))

    func set(_ continuation: CheckedContinuation<Void, Never>) {
        let resumeNow = state.withLock { state -> Bool in
            guard !state.resumed else { return true }
            state.continuation = continuation
            return false
        }
        if resumeNow { continuation.resume() }
    }

    func resume() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state = (nil, true) }
            return state.resumed ? nil : state.continuation
        }
        continuation?.resume()
    }
}
