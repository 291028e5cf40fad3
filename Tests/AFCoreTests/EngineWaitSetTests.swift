@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// An engine that cannot open its epoll set (no descriptor left) runs no thread: each request
/// fails at once with the reason, none hangs. Run in a child process (this test binary, running
/// `NoDescriptorsChild`), whose open-files limit is lowered to what it already holds.
@Suite(.timeLimit(.minutes(1))) struct EngineWaitSetTests {
    @Test func aSessionWithoutItsEpollSetFailsEachRequestWithTheReason() async throws {
        let child = try startChildSuite("NoDescriptorsChild", adding: [NoDescriptorsChild.key: "1"])
        let reported = await child.line(containing: "AF-CHILD-ERROR")
        #expect(try await child.end() == 0, "the child's standard error: \(child.errors)")
        #expect(reported?.contains("epoll") == true, "\(reported ?? "no line")")
    }

    /// A socket the epoll set refuses (the system out of watches) fails its request at once with
    /// the reason; curl alone would wait on it until the request's timeout. Run in a child
    /// process (`RefusedWatchChild`), whose adds to the engine's epoll set fail from a point on.
    @Test func aSocketTheEpollSetRefusesFailsItsRequestWithTheReason() async throws {
        let child = try startChildSuite("RefusedWatchChild", adding: [RefusedWatchChild.key: "1"])
        let reported = await child.line(containing: "AF-CHILD-ERROR")
        #expect(try await child.end() == 0, "the child's standard error: \(child.errors)")
        #expect(reported?.contains("could not watch the connection's socket") == true, "\(reported ?? "no line")")
    }
}

@Suite struct RefusedWatchChild {
    static let key = "AF_ENGINE_REFUSED_WATCH"

    @Test(.enabled(if: ProcessInfo.processInfo.environment[key] != nil))
    func aRequestFailsAtOnce() async throws {
        let listener = try SilentListener()
        defer { listener.close() }
        let configuration = URLSessionConfiguration.af.default
        // Longer than the parent's time limit: a request that waits for it fails the parent.
        configuration.timeoutIntervalForRequest = 120
        let session = Session(configuration: configuration)
        // Once a request ran, the engine's own descriptors are in its set.
        _ = await session.request("http://127.0.0.1:9/never").serializingData().response
        let epoll = try #require(session.engine.epollDescriptor)
        try #require(refuseEpollAdds(to: epoll, with: ENOSPC))
        let response = await session.request("http://127.0.0.1:\(listener.port)/silent").serializingData().response
        let description = response.error.map { String(describing: $0) } ?? "no error"
        FileHandle.standardOutput.write(Data("AF-CHILD-ERROR \(description)\n".utf8))
        #expect((response.error?.underlyingError as? URLError)?.code == .cannotConnectToHost)
    }
}

@Suite struct NoDescriptorsChild {
    static let key = "AF_ENGINE_NO_DESCRIPTORS"

    @Test(.enabled(if: ProcessInfo.processInfo.environment[key] != nil))
    func requestsFailAtOnce() async throws {
        // The lowest free descriptor becomes the limit: no new one can be made.
        var lowestFree: Int32 = 0
        while fcntl(lowestFree, F_GETFD) != -1 { lowestFree += 1 }
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        var lowered = limit
        lowered.rlim_cur = rlim_t(lowestFree)
        #expect(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &lowered) == 0)
        let session = Session()
        // Restored before the process ends, for what runs at exit (a sanitizer's report reads files).
        defer { setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) }
        for _ in 0..<2 {
            let response = await session.request("http://127.0.0.1:9/never").serializingData().response
            let description = response.error.map { String(describing: $0) } ?? "no error"
            FileHandle.standardOutput.write(Data("AF-CHILD-ERROR \(description)\n".utf8))
            #expect(response.error != nil)
        }
    }
}
