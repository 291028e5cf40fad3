import AFCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `URLCache` kept in one SQLite file, with the semantics of a private HTTP cache when AF's
/// engine uses it (`configuration.urlCache = try SQLiteURLCache(...)`): freshness, validation,
/// Vary (several variants per URL), invalidation. Responses are kept apart by the credentials of
/// their requests (`Authorization`, `Proxy-Authorization`, `Cookie`): each set sees only its own
/// entries, and anonymous requests only anonymous ones; the file holds a keyed hash of them, never
/// the values, and never a response's `Set-Cookie`. Safe to share between threads and between
/// processes of the same user using the same file (0600, its directory 0700 when created here).
/// Storing never fails a request: failures go to `onFailure`.
public final class SQLiteURLCache: URLCache, HTTPCacheStorage, @unchecked Sendable {
    /// Something the cache could not do; the request it served or stored was not affected.
    public enum Failure: Error, Sendable {
        /// A response could not be stored (disk full, database locked past the timeout, ...).
        case storeFailed(URL, underlying: any Error)
        /// The database could not be read; the request went to the network.
        case readFailed(URL, underlying: any Error)
        /// The database file was damaged: it was moved to this URL and a new one started.
        case databaseMovedAside(URL)
    }

    private struct State {
        var database: CacheDatabase
        var memory: MemoryLayer
        var diskCapacity: Int
        var dataVersion: Int64 = 0
        var reportedMoves = 0
        /// URLs answered from memory since the last write: their disk recency is updated then.
        var touched: [URL: Date] = [:]
        var onFailure: (@Sendable (Failure) -> Void)?
    }

    private let state: Protected<State>
    /// The SQLite file.
    public let fileURL: URL

    /// Opens (or creates) the cache in the SQLite file at `fileURL`; `memoryCapacity` bytes of
    /// recent small responses are also kept in memory, and at most `diskCapacity` bytes on disk
    /// (least recently used go first; a response over a twentieth of it is not stored). A
    /// damaged file is moved aside and replaced.
    public convenience init(fileURL: URL, memoryCapacity: Int = 4 << 20, diskCapacity: Int = 256 << 20) throws {
        try self.init(fileURL: fileURL, memoryCapacity: memoryCapacity, diskCapacity: diskCapacity,
                      busyTimeout: CacheDatabase.busyTimeout)
    }

    /// The same, waiting at most `busyTimeout` for another connection's lock.
    init(fileURL: URL, memoryCapacity: Int, diskCapacity: Int, busyTimeout: TimeInterval) throws {
        self.fileURL = fileURL
        let database = try CacheDatabase(fileURL: fileURL, busyTimeout: busyTimeout)
        state = Protected(State(database: database, memory: MemoryLayer(capacity: memoryCapacity),
                                diskCapacity: diskCapacity))
        // The superclass is given an existing directory and no capacity: it writes nothing.
        super.init(memoryCapacity: 0, diskCapacity: 0, diskPath: fileURL.deletingLastPathComponent().path)
    }

    /// Called (on the thread that hit it) for each failure; settable from any thread.
    public var onFailure: (@Sendable (Failure) -> Void)? {
        get { state.withLock { $0.onFailure } }
        set { state.withLock { $0.onFailure = newValue } }
    }

    // MARK: HTTPCacheStorage

    /// Every variant stored for `url` for requests with `credentials`, from memory or the file.
    public func cachedEntries(for url: URL, credentials: CacheCredentials) -> [HTTPCacheEntry] {
        let (entries, failures) = state.withLock { state -> ([HTTPCacheEntry], [Failure]) in
            do {
                try refreshMemory(&state)
                let key = MemoryLayer.Key(url: url, partition: credentials.partition(key: state.database.partitionKey))
                if let held = state.memory.entries(for: key) {
                    state.touched[url] = Date()
                    return (held, moves(&state))
                }
                let stored = try state.database.entries(for: url, partition: key.partition, now: Date())
                state.memory.hold(stored, for: key)
                return (stored, moves(&state))
            } catch {
                return ([], moves(&state) + [.readFailed(url, underlying: error)])
            }
        }
        report(failures)
        return entries
    }

    /// Stores `entry` for requests with `credentials` (its body in chunks), then evicts the least
    /// recently used entries past the disk capacity. A response over a twentieth of it is not stored.
    public func storeEntry(_ entry: HTTPCacheEntry, credentials: CacheCredentials) {
        let failures = state.withLock { state -> [Failure] in
            guard MemoryLayer.size(of: entry) <= state.diskCapacity / 20 else { return [] }
            let key = MemoryLayer.Key(url: entry.url, partition: credentials.partition(key: state.database.partitionKey))
            do {
                try refreshMemory(&state)
                try state.database.markUsed(state.touched)
                state.touched = [:]
                try state.database.store(entry, partition: key.partition, now: Date(), capacity: state.diskCapacity)
                state.memory.remove(key)
                return moves(&state)
            } catch {
                state.memory.remove(key)
                return moves(&state) + [.storeFailed(entry.url, underlying: error)]
            }
        }
        report(failures)
    }

    /// Removes every variant stored for `url`, whatever the credentials.
    public func removeEntries(for url: URL) {
        let failures = state.withLock { state -> [Failure] in
            state.memory.remove(url)
            do {
                try state.database.remove(url: url)
                return moves(&state)
            } catch {
                return moves(&state) + [.storeFailed(url, underlying: error)]
            }
        }
        report(failures)
    }

    // MARK: URLCache

    /// The newest stored response whose Vary fields match `request`'s, fresh or not.
    public override func cachedResponse(for request: URLRequest) -> CachedURLResponse? {
        guard let url = request.url else { return nil }
        let entry = cachedEntries(for: url, credentials: CacheCredentials(request: request))
            .filter { CacheLookup.matchesVary($0, request: CacheRequestFields(request)) }
            .max { $0.responseDate < $1.responseDate }
        guard let entry, let response = HTTPURLResponse(url: url, statusCode: entry.statusCode, httpVersion: "HTTP/1.1",
                                                        headerFields: Dictionary(entry.headers.map { ($0.name, $0.value) }) { $1 })
        else { return nil }
        return CachedURLResponse(response: response, data: entry.body, userInfo: nil, storagePolicy: .allowed)
    }

    /// Stores `cachedResponse` as the answer to `request`, unless its storage policy forbids it.
    public override func storeCachedResponse(_ cachedResponse: CachedURLResponse, for request: URLRequest) {
        guard cachedResponse.storagePolicy != .notAllowed, let url = request.url,
              let response = cachedResponse.response as? HTTPURLResponse else { return }
        let headers = HTTPHeaders(response.allHeaderFields.compactMap { name, value in
            (name as? String).map { HTTPHeader(name: $0, value: "\(value)") }
        })
        let now = Date()
        storeEntry(CacheStoreRules.entry(for: CacheRequestFields(request), url: url, statusCode: response.statusCode, headers: headers,
                                         body: cachedResponse.data, requestDate: now, responseDate: now),
                   credentials: CacheCredentials(request: request))
    }

    /// Removes every variant stored for `request`'s URL.
    public override func removeCachedResponse(for request: URLRequest) {
        if let url = request.url { removeEntries(for: url) }
    }

    /// Empties the cache.
    public override func removeAllCachedResponses() {
        write { try $0.removeAll() }
    }

    /// Removes the responses stored at or after `date`.
    public override func removeCachedResponses(since date: Date) {
        write { try $0.remove(storedSince: date) }
    }

    /// Bytes of the SQLite file and its write-ahead log.
    public override var currentDiskUsage: Int {
        [fileURL.path, fileURL.path + "-wal"].reduce(0) { total, path in
            total + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        }
    }

    /// Bytes held in memory for responses: their bodies and fields, and what is parsed from the fields.
    public override var currentMemoryUsage: Int { state.withLock { $0.memory.usage } }

    /// Bytes of recent small responses kept in memory at most.
    public override var memoryCapacity: Int {
        get { state.withLock { $0.memory.capacity } }
        set { state.withLock { $0.memory.capacity = newValue } }
    }

    /// Bytes of responses kept in the file at most; the least recently used go first.
    public override var diskCapacity: Int {
        get { state.withLock { $0.diskCapacity } }
        set { state.withLock { $0.diskCapacity = newValue } }
    }

    // MARK: Internals

    private func write(_ change: (CacheDatabase) throws -> Void) {
        let failures = state.withLock { state -> [Failure] in
            state.memory.removeAll()
            do {
                try change(state.database)
                return moves(&state)
            } catch {
                return moves(&state) + [.storeFailed(fileURL, underlying: error)]
            }
        }
        report(failures)
    }

    /// Forgets what memory holds when another process changed the file.
    private func refreshMemory(_ state: inout State) throws {
        let version = try state.database.dataVersion()
        if version != state.dataVersion {
            state.memory.removeAll()
            state.dataVersion = version
        }
    }

    /// Damaged files moved aside since the last report.
    private func moves(_ state: inout State) -> [Failure] {
        let moved = state.database.movedAside.dropFirst(state.reportedMoves)
        state.reportedMoves = state.database.movedAside.count
        return moved.map { .databaseMovedAside($0) }
    }

    private func report(_ failures: [Failure]) {
        guard !failures.isEmpty, let handler = onFailure else { return }
        failures.forEach(handler)
    }
}
