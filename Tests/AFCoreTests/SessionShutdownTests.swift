import AFCore
import AFTestSupport
import Foundation
import Testing

/// `Session.shutdown()`: active requests are cancelled, later ones refused, the engine ends.
@Suite(.timeLimit(.minutes(1))) struct SessionShutdownTests {
    @Test func activeRequestsAreCancelledAndLaterOnesRefused() async throws {
        let session = makeSession()
        let request = session.request(Server.faults("/stall"))
        let stalled = request.serializingData()
        _ = await response { done in request.onURLSessionTaskCreation(on: .global()) { _ in done(()) } }
        await session.shutdown()
        #expect(await stalled.response.error?.isExplicitlyCancelledError == true)
        let later = await session.request(Server.http("/get")).serializingData().response
        #expect(later.error?.isSessionInvalidatedError == true, "\(String(describing: later.error))")
        await session.shutdown()  // again: returns at once
    }

    @Test func requestsMadeWhileShutdownBeginsAreRefusedOrCancelledNeverLeftWaiting() async throws {
        // Requests are registered on their callers' threads as shutdown starts on another: each
        // is either refused or among those shutdown cancels. One that slipped between the two
        // would wait forever (the suite's time limit fails it).
        let session = makeSession()
        let requests = Protected<[DataRequest]>([])
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<50 { requests.withLock { $0.append(session.request(Server.faults("/stall"))) } }
                }
            }
            group.addTask { await session.shutdown() }
        }
        for request in requests.value {
            let error = await request.serializingData().response.error
            #expect(error?.isSessionInvalidatedError == true || error?.isExplicitlyCancelledError == true,
                    "\(String(describing: error))")
        }
    }

    @Test func anIdleSessionShutsDownAtOnce() async throws {
        let session = makeSession()
        let before = await session.request(Server.http("/get")).serializingData().response
        #expect(before.value != nil)
        await session.shutdown()
        let key = uniqueKey()
        let after = await session.request(Server.faults("/wire/\(key)")).serializingData().response
        #expect(after.error?.isSessionInvalidatedError == true)
        // Refused before any attempt: nothing reached the server.
        let observer = makeSession()
        let seen = try await observer.request(Server.faults("/wire-count/\(key)")).serializingString().value
        #expect(seen == "0")
    }
}
