@testable import AFCache
import CSQLite
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// SQLiteURLCache as a URLCache and as storage: keys, variants, capacity, faults.
@Suite struct SQLiteURLCacheTests {
    /// A fresh directory for one test's database, removed at the end.
    final class Scratch {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("af-cache-\(UUID().uuidString)")
        var file: URL { directory.appendingPathComponent("cache.sqlite") }
        deinit { try? FileManager.default.removeItem(at: directory) }
    }

    static func entry(_ url: String, body: String = "body", varying: [String: String] = [:],
                      headers: HTTPHeaders = ["Cache-Control": "max-age=60"]) -> HTTPCacheEntry {
        var headers = headers
        if !varying.isEmpty { headers.add(name: "Vary", value: varying.keys.sorted().joined(separator: ", ")) }
        return HTTPCacheEntry(url: URL(string: url)!, statusCode: 200, headers: headers, body: Data(body.utf8),
                              varyingRequestHeaders: varying, requestDate: Date(), responseDate: Date())
    }

    static func cached(_ cache: URLCache, _ url: String, headers: [String: String] = [:]) -> String? {
        var request = URLRequest(url: URL(string: url)!)
        headers.forEach { request.setValue($0.value, forHTTPHeaderField: $0.key) }
        return cache.cachedResponse(for: request).map { String(decoding: $0.data, as: UTF8.self) }
    }

    @Test func theURLCacheMethodsWorkAndTheQueryIsPartOfTheKey() throws {
        let scratch = Scratch()
        let cache = try SQLiteURLCache(fileURL: scratch.file)
        let request = URLRequest(url: URL(string: "http://example.test/a?page=1")!)
        let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1",
                                       headerFields: ["Cache-Control": "max-age=60", "Content-Type": "text/plain"])!
        cache.storeCachedResponse(CachedURLResponse(response: response, data: Data("one".utf8)), for: request)
        let read = try #require(cache.cachedResponse(for: request))
        #expect(String(decoding: read.data, as: UTF8.self) == "one")
        #expect((read.response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "text/plain")
        #expect(Self.cached(cache, "http://example.test/a?page=2") == nil)
        #expect(Self.cached(cache, "http://example.test/a") == nil)
        #expect(cache.currentDiskUsage > 0)

        cache.removeCachedResponse(for: request)
        #expect(cache.cachedResponse(for: request) == nil)
    }

    @Test func removingAllOrSinceADate() throws {
        let scratch = Scratch()
        let cache = try SQLiteURLCache(fileURL: scratch.file)
        cache.storeEntry(Self.entry("http://example.test/old"))
        let cut = Date()
        cache.storeEntry(Self.entry("http://example.test/new"))
        cache.removeCachedResponses(since: cut)
        #expect(Self.cached(cache, "http://example.test/old") == "body")
        #expect(Self.cached(cache, "http://example.test/new") == nil)
        cache.removeAllCachedResponses()
        #expect(Self.cached(cache, "http://example.test/old") == nil)
    }

    @Test func everyVariantOfAURLIsKept() throws {
        let scratch = Scratch()
        let cache = try SQLiteURLCache(fileURL: scratch.file)
        for language in ["en", "fr", "de"] {
            cache.storeEntry(Self.entry("http://example.test/v", body: language, varying: ["accept-language": language]))
        }
        cache.storeEntry(Self.entry("http://example.test/v", body: "fr2", varying: ["accept-language": "fr"]))  // replaces fr
        #expect(cache.cachedEntries(for: URL(string: "http://example.test/v")!).map { String(decoding: $0.body, as: UTF8.self) }.sorted()
                == ["de", "en", "fr2"])
        #expect(Self.cached(cache, "http://example.test/v", headers: ["Accept-Language": "fr"]) == "fr2")
        #expect(Self.cached(cache, "http://example.test/v", headers: ["Accept-Language": "it"]) == nil)
    }

    @Test func theLeastRecentlyUsedGoFirst() throws {
        let scratch = Scratch()
        // 100 kB on disk, entries of about 4 kB; memory holds them too (uses count through it).
        let cache = try SQLiteURLCache(fileURL: scratch.file, memoryCapacity: 1 << 20, diskCapacity: 100_000)
        let body = String(repeating: "x", count: 4000)
        for index in 0..<20 { cache.storeEntry(Self.entry("http://example.test/\(index)", body: body)) }
        #expect(Self.cached(cache, "http://example.test/0") != nil)  // used: now the most recent
        for index in 20..<30 { cache.storeEntry(Self.entry("http://example.test/\(index)", body: body)) }
        let reopened = try SQLiteURLCache(fileURL: scratch.file, memoryCapacity: 0, diskCapacity: 100_000)
        #expect(Self.cached(reopened, "http://example.test/0") != nil)
        #expect(Self.cached(reopened, "http://example.test/1") == nil)
        #expect(Self.cached(reopened, "http://example.test/29") != nil)
        #expect(try reopened.storedSizeForTests() <= 100_000)
    }

    @Test func largeBodiesStayOutOfMemoryAndHugeOnesOutOfTheCache() throws {
        let scratch = Scratch()
        let cache = try SQLiteURLCache(fileURL: scratch.file, memoryCapacity: 1 << 20, diskCapacity: 40 << 20)
        cache.storeEntry(Self.entry("http://example.test/large", body: String(repeating: "l", count: 1 << 20)))
        #expect(Self.cached(cache, "http://example.test/large")?.count == 1 << 20)
        #expect(cache.currentMemoryUsage == 0)
        cache.storeEntry(Self.entry("http://example.test/small"))
        #expect(Self.cached(cache, "http://example.test/small") == "body")
        #expect(cache.currentMemoryUsage > 0)
        cache.storeEntry(Self.entry("http://example.test/huge", body: String(repeating: "h", count: 3 << 20)))  // over 1/20
        #expect(Self.cached(cache, "http://example.test/huge") == nil)
    }

    @Test(arguments: ["garbage", "truncated"])
    func aDamagedFileIsMovedAsideAndReplaced(damage: String) throws {
        let scratch = Scratch()
        if damage == "garbage" {
            try FileManager.default.createDirectory(at: scratch.directory, withIntermediateDirectories: true)
            try Data(repeating: 0x5A, count: 10_000).write(to: scratch.file)
        } else {
            do {
                let cache = try SQLiteURLCache(fileURL: scratch.file)
                for index in 0..<50 {
                    cache.storeEntry(Self.entry("http://example.test/\(index)", body: String(repeating: "t", count: 3000)))
                }
            }
            let data = try Data(contentsOf: scratch.file)
            #expect(data.count > 8192, "the rows should be in the main file after its connection closed")
            try data.prefix(data.count / 2).write(to: scratch.file)
        }
        let failures = Failures()
        let cache = try SQLiteURLCache(fileURL: scratch.file)
        cache.onFailure = failures.record
        cache.storeEntry(Self.entry("http://example.test/after"))
        #expect(Self.cached(cache, "http://example.test/after") == "body")
        let names = try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path)
        #expect(names.contains { $0.hasPrefix("cache.sqlite.corrupt-") }, "\(names)")
        #expect(failures.moved == 1)
    }

    @Test func aLockedDatabaseMakesStoringFailQuietly() throws {
        let scratch = Scratch()
        let cache = try SQLiteURLCache(fileURL: scratch.file, memoryCapacity: 0, diskCapacity: 1 << 20, busyTimeout: 0.2)
        let failures = Failures()
        cache.onFailure = failures.record
        // Another connection holds the write lock.
        var other: OpaquePointer?
        #expect(sqlite3_open(scratch.file.path, &other) == SQLITE_OK)
        defer { sqlite3_close(other) }
        #expect(sqlite3_exec(other, "BEGIN EXCLUSIVE", nil, nil, nil) == SQLITE_OK)
        cache.storeEntry(Self.entry("http://example.test/locked"))
        #expect(failures.stores == 1)
        #expect(sqlite3_exec(other, "COMMIT", nil, nil, nil) == SQLITE_OK)
        cache.storeEntry(Self.entry("http://example.test/locked"))
        #expect(Self.cached(cache, "http://example.test/locked") == "body")
    }

    final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var all: [SQLiteURLCache.Failure] = []
        var record: @Sendable (SQLiteURLCache.Failure) -> Void {
            { failure in self.lock.withLock { self.all.append(failure) } }
        }
        var moved: Int { lock.withLock { all.filter { if case .databaseMovedAside = $0 { true } else { false } }.count } }
        var stores: Int { lock.withLock { all.filter { if case .storeFailed = $0 { true } else { false } }.count } }
    }
}

extension SQLiteURLCache {
    func storedSizeForTests() throws -> Int {
        try CacheDatabase(fileURL: fileURL).storedSize()
    }
}
