@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Thousands of transfers at once: a session allowed that many connections per host spreads its
/// transfers over several multi handles (see `CurlShard`), which together keep its limits.
@Suite(.serialized, .timeLimit(.minutes(1))) struct ManyTransfersTests {
    /// What `longpoll.py` saw since the last call.
    struct Stats: Decodable {
        var count: Int
        /// The most requests held at once: each on a connection of its own.
        var peakHeld: Int
    }

    static func takeStats() async throws -> Stats {
        let session = Session()
        let response = await session.request(TestServers.shared.all["longpoll"]! + "/stats")
            .serializingDecodable(Stats.self).response
        return try response.result.get()
    }

    /// The open-files limit raised to the hard limit: this process holds a socket per transfer.
    static let openFilesLimit: Int = {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        return Int(limit.rlim_cur)
    }()

    @Test(.enabled(if: openFilesLimit >= 4096, "needs an open-files hard limit of at least 4096"))
    func transfersPastOneMultiHandlesShareSpreadAndKeepThePerHostLimit() async throws {
        _ = try await Self.takeStats()
        let configuration = URLSessionConfiguration.af.default
        // Two multi handles of 512 connections each.
        configuration.httpMaximumConnectionsPerHost = 1024
        let session = makeSession(configuration: configuration)
        // Each request is held until 513 are held at once (more than one multi handle's share),
        // then answered; at most 30 s, which a session kept to one share would wait out.
        let url = TestServers.shared.all["longpoll"]! + "/hold?ms=30000&gather=513"
        let count = 1100
        let failures = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<count {
                group.addTask { await session.request(url).validate().serializingData().response.error == nil }
            }
            return await group.reduce(0) { $0 + ($1 ? 0 : 1) }
        }
        #expect(failures == 0)
        #expect(session.engine.shardCount == 2)
        let stats = try await Self.takeStats()
        #expect(stats.count == count)
        // More connections than one multi handle's share, never more than the session's limit.
        #expect(stats.peakHeld > 512)
        #expect(stats.peakHeld <= 1024)
    }

    @Test func aSessionWithAFewConnectionsPerHostKeepsOneMultiHandle() async throws {
        let configuration = URLSessionConfiguration.af.default
        configuration.httpMaximumConnectionsPerHost = 1023
        let session = makeSession(configuration: configuration)
        let url = TestServers.shared.all["longpoll"]! + "/hold?ms=100"
        let responses = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<600 { group.addTask { await session.request(url).serializingData().response.error == nil } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(responses == 600)
        #expect(session.engine.shardCount == 1)
        _ = try await Self.takeStats()
    }
}
