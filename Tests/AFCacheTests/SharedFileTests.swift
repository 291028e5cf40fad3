@testable import AFCache
import Foundation
import Testing

/// Two processes using one database file: each sees the other's writes, concurrent writers wait
/// for each other instead of failing, and memory never serves what the other process replaced.
@Suite(.timeLimit(.minutes(1))) struct SharedFileTests {
    @Test func twoProcessesShareOneFile() async throws {
        let scratch = SQLiteURLCacheTests.Scratch()
        let cache = try SQLiteURLCache(fileURL: scratch.file)
        let failures = SQLiteURLCacheTests.Failures()
        cache.onFailure = failures.record
        cache.storeEntry(SQLiteURLCacheTests.entry("http://example.test/parent", body: "from parent"))
        cache.storeEntry(SQLiteURLCacheTests.entry("http://example.test/shared", body: "v1"))
        #expect(SQLiteURLCacheTests.cached(cache, "http://example.test/shared") == "v1")  // now held in memory

        setenv("AF_CACHE_FILE", scratch.file.path, 1)
        let writer = Task.detached {
            for index in 0..<200 { cache.storeEntry(SQLiteURLCacheTests.entry("http://example.test/p\(index)")) }
        }
        await #expect(processExitsWith: .success) {
            let file = URL(fileURLWithPath: ProcessInfo.processInfo.environment["AF_CACHE_FILE"]!)
            guard let cache = try? SQLiteURLCache(fileURL: file) else { exit(2) }
            nonisolated(unsafe) var failed = false
            cache.onFailure = { _ in failed = true }
            guard SQLiteURLCacheTests.cached(cache, "http://example.test/parent") == "from parent" else { exit(3) }
            for index in 0..<200 { cache.storeEntry(SQLiteURLCacheTests.entry("http://example.test/c\(index)")) }
            cache.storeEntry(SQLiteURLCacheTests.entry("http://example.test/shared", body: "v2"))
            exit(failed ? 4 : 0)
        }
        await writer.value
        #expect(SQLiteURLCacheTests.cached(cache, "http://example.test/shared") == "v2")
        for index in 0..<200 {
            #expect(SQLiteURLCacheTests.cached(cache, "http://example.test/c\(index)") == "body")
            #expect(SQLiteURLCacheTests.cached(cache, "http://example.test/p\(index)") == "body")
        }
        #expect(failures.stores == 0)
    }
}
