@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif
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

    /// A daemon exits right after its last Session's shutdown: by then the engine's thread must
    /// have closed the connections curl kept and let go of curl, or the process would exit under
    /// it (libraries' exit handlers run while it still frees their objects).
    @Test func theKeptConnectionIsClosedWhenShutdownReturns() async throws {
        let session = makeSession()
        let response = await session.request(Server.http("/get")).serializingData().response
        #expect(response.value != nil)
        let transaction = try #require(response.metrics?.transactionMetrics.last)
        let (localPort, remotePort) = try (#require(transaction.localPort), #require(transaction.remotePort))
        let (descriptor, inode) = try #require(try Self.connection(localPort: localPort, remotePort: remotePort),
                                               "curl keeps the connection")
        await session.shutdown()
        // Asked at once, in two system calls: the descriptor is closed, or another file now.
        var status = stat()
        #expect(fstat(descriptor, &status) != 0 || status.st_ino != inode,
                "the connection is still open after shutdown() returned")
    }

    /// The engine's own report of its end comes once its thread has closed the connections
    /// (checked on that thread as the report arrives).
    @Test func theEngineReportsItsEndOnceItsConnectionsAreClosed() async throws {
        let session = makeSession()
        let response = await session.request(Server.http("/get")).serializingData().response
        let transaction = try #require(response.metrics?.transactionMetrics.last)
        let (localPort, remotePort) = try (#require(transaction.localPort), #require(transaction.remotePort))
        let (descriptor, inode) = try #require(try Self.connection(localPort: localPort, remotePort: remotePort),
                                               "curl keeps the connection")
        let closedAtTheReport = await withCheckedContinuation { reported in
            session.engine.shutdown {
                var status = stat()
                reported.resume(returning: fstat(descriptor, &status) != 0 || status.st_ino != inode)
            }
        }
        #expect(closedAtTheReport, "the connection was still open when the engine reported its end")
        // Asked again, the engine reports its end at once, inside the call.
        let reportedAgain = Protected(false)
        session.engine.shutdown { reportedAgain.withLock { $0 = true } }
        #expect(reportedAgain.value)
    }

    /// This process's descriptor of the TCP socket from `localPort` to `remotePort`, and its inode.
    private static func connection(localPort: Int, remotePort: Int) throws -> (descriptor: Int32, inode: UInt)? {
        let sockets = socketDescriptorsByInode()
        for table in ["/proc/self/net/tcp", "/proc/self/net/tcp6"] {
            let text = try procFileText(table)
            // Fields: slot, local address:port, remote address:port (hexadecimal), ..., the inode tenth.
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 9, let local = fields[1].split(separator: ":").last,
                      let remote = fields[2].split(separator: ":").last,
                      Int(local, radix: 16) == localPort, Int(remote, radix: 16) == remotePort,
                      let descriptor = sockets[fields[9]], let inode = UInt(fields[9]) else { continue }
                return (descriptor, inode)
            }
        }
        return nil
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
