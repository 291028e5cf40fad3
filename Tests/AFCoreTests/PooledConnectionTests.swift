@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A connection curl pools between transfers stays in the engine's wait set: its next transfer
/// changes nothing there, and one the peer closed meanwhile leaves the set when it wakes the
/// engine rather than waking it again and again.
@Suite(.timeLimit(.minutes(1))) struct PooledConnectionTests {
    @Test func transfersOnAPooledConnectionLeaveTheWaitSetAsItIs() async throws {
        let session = makeSession()
        // Every curl call on the engine thread. A caller that sends its own request while the
        // engine waits may also complete it before the engine looks at the socket's readiness,
        // which then finds the connection pooled again and takes it out of the set: harmless,
        // and a change this count would see.
        session.engine.callerSharesCore = { _ in false }
        let url = Server.http("/bench.json")
        // The first transfer opens the connection: it is added to the set and watched.
        _ = try await session.request(url).validate().serializingData().value
        let before = session.engine.waitSetActivity.changes
        #expect(before > 0)
        for _ in 1...5 {
            let data = try await session.request(url).validate().serializingData().value
            #expect(data == Data(#"{"hello":"world"}"#.utf8))
        }
        // Each used to take the socket out of the set as it ended and put it back as the next began.
        #expect(session.engine.waitSetActivity.changes == before)
    }

    @Test func aPooledConnectionItsPeerClosedWakesTheEngineOnce() async throws {
        let session = makeSession()
        // Answered as if kept open, then closed by the server: curl pools it, and the socket
        // turns readable (the end of the stream) while no transfer uses it.
        let first = try await session.request(Server.faults("/keep-then-close")).validate().serializingString().value
        #expect(first == "closing")
        // Transfers on another connection meanwhile. A closed socket left in the set would wake
        // the engine on every wait until curl next looked at its pool (up to a second later).
        let before = session.engine.waitSetActivity.readySockets
        for _ in 1...20 {
            _ = try await session.request(Server.http("/bench.json")).validate().serializingData().value
        }
        let woken = session.engine.waitSetActivity.readySockets - before
        #expect(woken <= 20 * 4, "the wait set found sockets ready \(woken) times for 20 requests")
        // The closed connection is not used again; the next request to that server gets a new one.
        let again = try await session.request(Server.faults("/keep-then-close")).validate().serializingString().value
        #expect(again == "closing")
    }
}
