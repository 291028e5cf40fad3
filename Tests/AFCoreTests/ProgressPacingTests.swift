@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Byte counts reach a request at most once per `ProgressThrottle.interval` (plus the first and
/// the last), the last with every byte, and counts held back during a stall still arrive.
@Suite(.timeLimit(.minutes(1))) struct ProgressPacingTests {
    @Test func aFastDownloadsCountsArePacedAndTheLastHasEveryByte() async throws {
        let size: Int64 = 32 << 20
        let calls = Protected<[Int64]>([])
        let progressQueue = DispatchQueue(label: "test.progress")
        let url = Server.faults("/blob?size=\(size)")  // starts the servers, if they are not yet
        let session = makeSession()
        let start = DispatchTime.now().uptimeNanoseconds
        let request = session.request(url)
            .downloadProgress(queue: progressQueue) { progress in
                calls.withLock { $0.append(progress.completedUnitCount) }
            }
        let response = await request.serializingData().response
        withExtendedLifetime(session) {}
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        #expect(response.value?.count == Int(size), "\(String(describing: response.error))")
        // Every call was queued on the progress queue before the completion: drain them.
        progressQueue.sync {}
        let counts = calls.withLock { $0 }
        #expect(counts.last == size)
        #expect(counts == counts.sorted())
        // Reports are at least the interval apart, but for the first and the last.
        let allowed = Int(elapsed / ProgressThrottle.interval) + 2
        #expect(counts.count <= allowed, "\(counts.count) calls in \(elapsed / 1_000_000) ms")
    }

    @Test func countsHeldWhenTheTransferStallsStillArrive() async throws {
        // The server reads the whole body and never answers: the last counts come in the middle
        // of a burst of sends and then nothing moves until the request is cancelled.
        let body = Data(repeating: 0x61, count: 4 << 20)
        let allSent = OneShot()
        let session = makeSession()
        let request = session.upload(body, to: Server.faults("/stall"))
            .uploadProgress(queue: DispatchQueue(label: "test.progress")) { progress in
                if progress.completedUnitCount == Int64(body.count) { allSent.fire() }
            }
        request.response(queue: .global()) { _ in }
        await allSent.wait()
        #expect(allSent.hasFired)
        #expect(request.uploadProgress.completedUnitCount == Int64(body.count))
        request.cancel()
        withExtendedLifetime(session) {}
    }
}
