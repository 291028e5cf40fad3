@testable import AFCache
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Requests through a cache whose file is damaged or cannot grow: they still succeed, and the
/// cache reports what it could not do to `onFailure`, not to the caller.
@Suite(.timeLimit(.minutes(1))) struct CacheFaultTests {
    @Test(arguments: ["scribbled", "truncated"])
    func aDamagedFileIsReplacedAndRequestsSucceed(damage: String) async throws {
        let scratch = SQLiteURLCacheTests.Scratch()
        let url = CacheProbe.url(uniqueKey(), ["Cache-Control:max-age=600"])
        do {  // filled, then closed (the connection goes with the cache)
            let cache = try SQLiteURLCache(fileURL: scratch.file)
            for index in 0..<20 {
                cache.storeEntry(SQLiteURLCacheTests.entry(url + "&n=\(index)", body: String(repeating: "b", count: 2000)))
            }
        }
        // The daemon stopped; the file is damaged before the next start (its log is gone too).
        let manager = FileManager.default
        for suffix in ["-wal", "-shm"] { try? manager.removeItem(atPath: scratch.file.path + suffix) }
        let data = try Data(contentsOf: scratch.file)
        try (damage == "truncated" ? data.prefix(data.count / 2) : Data(repeating: 0xA5, count: data.count)).write(to: scratch.file)

        let failures = SQLiteURLCacheTests.Failures()
        let probe = try CacheProbe(file: scratch.file, onFailure: failures.record)
        let after = await probe.get(url)
        #expect(after.error == nil && after.status == 200)
        #expect(await probe.get(url).fetchType == .localCache, "stored again in the new file")
        #expect(failures.moved == 1)
    }

    /// A row whose recorded body size is negative or larger than anything the cache stored, or
    /// whose status is not three digits, is a damaged file (moved aside, the request answered
    /// from the network), not a crash, an allocation of that size or a response with that code.
    @Test(arguments: [("body_size", Int64(-1)), ("body_size", Int64(1) << 62), ("body_size", Int64(100) << 20),
                      ("status", Int64(99_999)), ("status", Int64(-200))])
    func aRecordedBodySizeOrStatusThatCannotBeIsDamage(column: String, value: Int64) async throws {
        let scratch = SQLiteURLCacheTests.Scratch()
        let url = CacheProbe.url(uniqueKey(), ["Cache-Control:max-age=600"])
        do {
            let cache = try SQLiteURLCache(fileURL: scratch.file)
            cache.storeEntry(SQLiteURLCacheTests.entry(url, body: "four"))
        }
        let database = try SQLiteDatabase(path: scratch.file.path, busyTimeout: 1)
        try database.execute("UPDATE responses SET \(column) = \(value)")
        database.close()

        let failures = SQLiteURLCacheTests.Failures()
        let probe = try CacheProbe(file: scratch.file, onFailure: failures.record)
        let after = await probe.get(url)
        #expect(after.error == nil && after.status == 200 && after.fetchType == .networkLoad)
        #expect(failures.moved == 1)
    }

    @Test func aFullDiskMakesStoringFailQuietly() async throws {
        let scratch = SQLiteURLCacheTests.Scratch()
        _ = try SQLiteURLCache(fileURL: scratch.file)  // the file exists, with its schema
        setenv("AF_CACHE_FILE", scratch.file.path, 1)
        let servers = TestServers.shared
        let description = scratch.directory.appendingPathComponent("servers.json")
        try JSONSerialization.data(withJSONObject: servers.all).write(to: description)
        setenv("AF_TEST_SERVERS", description.path, 1)
        await #expect(processExitsWith: .success) {
            let file = URL(fileURLWithPath: ProcessInfo.processInfo.environment["AF_CACHE_FILE"]!)
            guard let cache = try? SQLiteURLCache(fileURL: file, memoryCapacity: 0, diskCapacity: 64 << 20) else { _exit(4) }
            nonisolated(unsafe) var storeFailures = 0
            cache.onFailure = { if case .storeFailed = $0 { storeFailures += 1 } }
            let configuration = URLSessionConfiguration.af.default
            configuration.urlCache = cache
            let session = makeSession(configuration: configuration)
            // From now on files may not grow past 256 KiB: writing more fails with EFBIG (not a
            // signal), as on a full disk.
            signal(SIGXFSZ, SIG_IGN)
            var limit = rlimit(rlim_cur: 256 << 10, rlim_max: 256 << 10)
            guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0 else { _exit(3) }
            let response = await session.request(Server.http("/static/1mb.bin")).serializingData().response
            // The answer arrives whole; only the cache missed it.
            _exit(response.value?.count == 1 << 20 && storeFailures == 1 ? 0 : 5)
        }
    }
}
