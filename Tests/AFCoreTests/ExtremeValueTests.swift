@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Values at the edges of what a server, a clock or a configuration can hand over: each gives an
/// answer (unknown, the largest, none), never a trap.
@Suite(.timeLimit(.minutes(1))) struct ExtremeValueTests {
    /// A resumed download's counts start at the offset; a total no Int64 holds (a server's
    /// Content-Length up to Int64.max, plus the offset) is unknown.
    @Test func resumedProgressSaturates() {
        let progress = TransferProgress(bytesReceived: 10, bytesExpectedToReceive: 100)
        #expect(progress.resumed(at: 5) == TransferProgress(bytesReceived: 15, bytesExpectedToReceive: 105))
        let huge = TransferProgress(bytesReceived: .max - 1, bytesExpectedToReceive: .max)
        #expect(huge.resumed(at: 5) == TransferProgress(bytesReceived: .max, bytesExpectedToReceive: 0))
        let unknown = TransferProgress(bytesReceived: 1, bytesExpectedToReceive: 0)
        #expect(unknown.resumed(at: 5).bytesExpectedToReceive == 0)
    }

    /// curl may ask to wait for as long as a transfer may last: past the clock, the deadline is
    /// the end of time.
    @Test func engineDeadlinesSaturate() {
        #expect(CurlEngine.deadline(now: 1_000, milliseconds: 2) == 2_001_000)
        #expect(CurlEngine.deadline(now: 1_000, milliseconds: .max) == .max)
        #expect(CurlEngine.deadline(now: .max - 10, milliseconds: 1) == .max)
        #expect(CurlEngine.deadline(now: 7, milliseconds: -1) == 7)
    }

    /// The wall clock stepping back during a request leaves an empty interval.
    @Test func aClockSteppingBackGivesAnEmptyInterval() {
        let start = Date(timeIntervalSince1970: 1_000)
        #expect(SessionTask.interval(from: start, to: start.addingTimeInterval(-30)).duration == 0)
        #expect(SessionTask.interval(from: start, to: start.addingTimeInterval(2)).duration == 2)
    }

    /// An infinite request timeout (the session's and the request's) is no timeout.
    @Test func anInfiniteTimeoutIsNone() async throws {
        let configuration = URLSessionConfiguration.af.default
        configuration.timeoutIntervalForRequest = .infinity
        let session = makeSession(configuration: configuration)
        let data = try await session.request(Server.http("/bench.json")) { $0.timeoutInterval = .infinity }
            .validate().serializingData().value
        #expect(!data.isEmpty)
    }
}
