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
