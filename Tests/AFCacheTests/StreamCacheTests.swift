import AFCache
import AFCore
import AFTestSupport
import Foundation
import Testing

/// A `DataStreamRequest` goes through the HTTP cache as a data request does: a fresh stored
/// response is streamed from the cache, a streamed response is stored when it fits the copy
/// limit (16 MiB), and a stale one is fetched again whole rather than revalidated.
@Suite(.timeLimit(.minutes(1))) struct StreamCacheTests {
    struct Streamed {
        var body = Data()
        var chunks = 0
        var completion: DataStreamRequest.Completion?
        var fetchType: TransactionMetrics.ResourceFetchType? { completion?.metrics?.transactionMetrics.last?.resourceFetchType }
    }

    private func stream(_ session: Session, _ url: String) async -> Streamed {
        var streamed = Streamed()
        for await event in session.streamRequest(url).streamTask().streamingData() {
            switch event.event {
            case let .stream(.success(data)):
                streamed.body += data
                streamed.chunks += 1
            case let .complete(completion):
                streamed.completion = completion
            }
        }
        return streamed
    }

    private func session(diskCapacity: Int = 256 << 20) throws -> (Session, SQLiteURLCache, SQLiteURLCacheTests.Scratch) {
        let scratch = SQLiteURLCacheTests.Scratch()
        try FileManager.default.createDirectory(at: scratch.directory, withIntermediateDirectories: true)
        let cache = try SQLiteURLCache(fileURL: scratch.file, memoryCapacity: 0, diskCapacity: diskCapacity)
        let configuration = URLSessionConfiguration.af.default
        configuration.urlCache = cache
        return (makeSession(configuration: configuration), cache, scratch)
    }

    @Test func aFreshStreamedResponseIsStoredAndStreamedFromTheCache() async throws {
        let (session, cache, scratch) = try session()
        _ = scratch
        let url = Server.http("/fresh/4mb.bin")
        let first = await stream(session, url)
        let second = await stream(session, url)
        #expect(first.fetchType == .networkLoad && first.chunks > 1)
        #expect(second.fetchType == .localCache, "\(String(describing: second.completion?.error))")
        #expect(first.body.count == 4 << 20 && second.body == first.body)
        #expect(second.completion?.response?.statusCode == 200)
        #expect(!cache.cachedEntries(for: URL(string: url)!).isEmpty)
    }

    @Test func aStreamLargerThanTheCopyLimitIsNotStored() async throws {
        // The storage would take 20 MiB (1 GiB ÷ 20 = 51 MiB per entry); the copy stops at 16 MiB.
        let (session, cache, scratch) = try session(diskCapacity: 1 << 30)
        _ = scratch
        let name = "stream-\(UUID().uuidString).bin"
        let file = URL(fileURLWithPath: TestServers.shared.all["directory"]! + "/static/" + name)
        try Data(repeating: 7, count: 20 << 20).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let url = Server.http("/fresh/" + name)
        let first = await stream(session, url)
        let second = await stream(session, url)
        #expect(first.body.count == 20 << 20 && second.body.count == 20 << 20)
        #expect([first.fetchType, second.fetchType] == [.networkLoad, .networkLoad])
        #expect(cache.cachedEntries(for: URL(string: url)!).isEmpty)
    }

    @Test func aStaleEntryIsFetchedAgainWholeNotRevalidated() async throws {
        let (session, _, scratch) = try session()
        _ = scratch
        // Stale at once, with a validator: a data request would revalidate (and get a 304).
        let url = Server.faults("/cacheable/\(uniqueKey())?etag=%22v1%22&h=Cache-Control:max-age%3D0")
        let first = await stream(session, url)
        let second = await stream(session, url)
        let served = try [first, second].map { try JSONSerialization.jsonObject(with: $0.body) as? [String: Any] }
        #expect(served.map { $0?["served"] as? Int } == [1, 2])
        #expect(served[1]?["ifNoneMatch"] is NSNull, "no conditional request")
        #expect(second.fetchType == .networkLoad && second.completion?.response?.statusCode == 200)
    }
}
