@testable import AFCache
import AFTestSupport
import CSQLite
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Bodies are kept in chunks of at most `CacheDatabase.chunkSize` bytes, so neither storing nor
/// serving makes SQLite hold a body whole, and they come back byte for byte.
@Suite struct CacheBodyChunkTests {
    typealias Scratch = SQLiteURLCacheTests.Scratch

    /// `count` bytes that differ from chunk to chunk and within each.
    static func pattern(_ count: Int) -> Data {
        patternBytes(count, segment: 1 << 20) { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 20) }
    }

    static func entry(_ url: String, body: Data) -> HTTPCacheEntry {
        HTTPCacheEntry(url: URL(string: url)!, statusCode: 200, headers: ["Cache-Control": "max-age=60"], body: body,
                       varyingRequestHeaders: [:], requestDate: Date(), responseDate: Date())
    }

    /// Runs `sql` on the file through a connection of the test's own; the first column of each row.
    static func column(_ file: URL, _ sql: String) -> [Int64] {
        var handle: OpaquePointer?
        guard sqlite3_open(file.path, &handle) == SQLITE_OK else { return [] }
        defer { sqlite3_close(handle) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { return [] }
        defer { sqlite3_finalize(statement) }
        var values: [Int64] = []
        while sqlite3_step(statement) == SQLITE_ROW { values.append(sqlite3_column_int64(statement, 0)) }
        return values
    }

    @Test func aLargeBodyIsKeptInChunksAndComesBackWhole() throws {
        let scratch = Scratch()
        let body = Self.pattern(3 << 20 + 12_345)
        do {
            let cache = try SQLiteURLCache(fileURL: scratch.file, memoryCapacity: 0, diskCapacity: 100 << 20)
            cache.storeEntry(Self.entry("http://example.test/large", body: body))
        }
        #expect(Self.column(scratch.file, "SELECT count(*) FROM body_chunks") == [4])
        #expect(Self.column(scratch.file, "SELECT max(length(bytes)) FROM body_chunks") == [Int64(CacheDatabase.chunkSize)])
        let reopened = try SQLiteURLCache(fileURL: scratch.file, memoryCapacity: 0, diskCapacity: 100 << 20)
        let entries = reopened.cachedEntries(for: URL(string: "http://example.test/large")!)
        #expect(entries.count == 1)
        #expect(entries.first?.body == body)
        // An empty body has no chunk and comes back empty.
        reopened.storeEntry(Self.entry("http://example.test/empty", body: Data()))
        #expect(reopened.cachedEntries(for: URL(string: "http://example.test/empty")!).map(\.body) == [Data()])
    }

    @Test func replacingRemovingAndEvictingLeaveNoChunkBehind() throws {
        let scratch = Scratch()
        let cache = try SQLiteURLCache(fileURL: scratch.file, memoryCapacity: 0, diskCapacity: 60 << 20)
        let orphans = "SELECT count(*) FROM body_chunks WHERE response NOT IN (SELECT id FROM responses)"
        cache.storeEntry(Self.entry("http://example.test/a", body: Self.pattern(5 << 20 / 2)))
        cache.storeEntry(Self.entry("http://example.test/a", body: Self.pattern(3 << 20 / 2)))  // the same variant
        #expect(Self.column(scratch.file, "SELECT count(*) FROM body_chunks") == [2])
        #expect(cache.cachedEntries(for: URL(string: "http://example.test/a")!).map(\.body) == [Self.pattern(3 << 20 / 2)])
        cache.removeEntries(for: URL(string: "http://example.test/a")!)
        #expect(Self.column(scratch.file, "SELECT count(*) FROM body_chunks") == [0])
        for index in 0..<30 {  // 2 MiB each: the oldest are evicted to stay within 60 MiB
            cache.storeEntry(Self.entry("http://example.test/\(index)", body: Self.pattern(2 << 20)))
        }
        #expect(cache.cachedEntries(for: URL(string: "http://example.test/0")!).isEmpty)
        #expect(Self.column(scratch.file, orphans) == [0])
        cache.removeAllCachedResponses()
        #expect(Self.column(scratch.file, "SELECT count(*) FROM body_chunks") == [0])
    }

    @Test func aMissingChunkIsDamageNeverAShortBody() throws {
        let scratch = Scratch()
        do {
            let cache = try SQLiteURLCache(fileURL: scratch.file, memoryCapacity: 0, diskCapacity: 100 << 20)
            cache.storeEntry(Self.entry("http://example.test/large", body: Self.pattern(3 << 20)))
        }
        #expect(Self.column(scratch.file, "DELETE FROM body_chunks WHERE seq = 1 RETURNING seq") == [1])
        let failures = SQLiteURLCacheTests.Failures()
        let cache = try SQLiteURLCache(fileURL: scratch.file, memoryCapacity: 0, diskCapacity: 100 << 20)
        cache.onFailure = failures.record
        #expect(cache.cachedEntries(for: URL(string: "http://example.test/large")!).isEmpty)
        #expect(failures.moved == 1)
    }

    @Test func aFileOfTheFormerLayoutIsStartedAfresh() throws {
        let scratch = Scratch()
        try FileManager.default.createDirectory(at: scratch.directory, withIntermediateDirectories: true)
        var handle: OpaquePointer?
        #expect(sqlite3_open(scratch.file.path, &handle) == SQLITE_OK)
        #expect(sqlite3_exec(handle, """
            CREATE TABLE responses (id INTEGER PRIMARY KEY, url TEXT NOT NULL, partition TEXT NOT NULL,
                variant TEXT NOT NULL, status INTEGER NOT NULL, headers BLOB NOT NULL, varying BLOB NOT NULL,
                body BLOB NOT NULL, request_date REAL NOT NULL, response_date REAL NOT NULL, stored_at REAL NOT NULL,
                last_used REAL NOT NULL, size INTEGER NOT NULL, UNIQUE (url, partition, variant));
            INSERT INTO responses VALUES (1, 'http://example.test/old', '', '', 200, '[]', '[]', 'old', 0, 0, 0, 0, 3);
            PRAGMA user_version = 2;
            """, nil, nil, nil) == SQLITE_OK)
        sqlite3_close(handle)
        let cache = try SQLiteURLCache(fileURL: scratch.file)
        #expect(cache.cachedEntries(for: URL(string: "http://example.test/old")!).isEmpty)
        cache.storeEntry(Self.entry("http://example.test/new", body: Data("new".utf8)))
        #expect(cache.cachedEntries(for: URL(string: "http://example.test/new")!).map(\.body) == [Data("new".utf8)])
    }

    @Test func aLargeResponseIsServedFromTheCacheByteForByte() async throws {
        let probe = try CacheProbe()
        let url = Server.http("/fresh/4mb.bin")  // nginx: the static file with max-age=3600
        let fromNetwork = await probe.session.request(url).serializingData().response
        let fromCache = await probe.session.request(url).serializingData().response
        #expect(fromNetwork.metrics?.transactionMetrics.last?.resourceFetchType == .networkLoad)
        #expect(fromCache.metrics?.transactionMetrics.last?.resourceFetchType == .localCache)
        #expect(fromNetwork.value?.count == 4 << 20)
        #expect(fromCache.value == fromNetwork.value)
        #expect(Self.column(probe.cache.fileURL, "SELECT count(*) FROM body_chunks") == [4])
    }
}
