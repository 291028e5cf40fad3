import AFCore
import Foundation

/// The cache's SQLite file, which several processes may share (WAL mode, a busy timeout).
///
/// - Rows: one per stored response variant and credential partition, with its size and last
///   use for least-recently-used eviction. Bodies are kept in chunks in a table of their own,
///   so SQLite never holds a body whole and a use is recorded without rewriting the body.
/// - Partitions: credentials are hashed with a random key kept in the file, chosen by the first
///   process that opens it.
/// - Damage: a damaged file is moved aside and a new one made.
/// - Privacy: the file, its `-wal` and `-shm` are created by AF, owner-only (0600), in a
///   directory made 0700 when AF creates it; a directory that others could write to (unless
///   sticky) is refused.
///
/// Not thread-safe: `SQLiteURLCache` serialises.
final class CacheDatabase {
    /// 2: rows carry the credential partition they were stored for (rows of version 1 did not,
    /// so they are dropped: they could hold one user's responses to be served to another).
    /// 3: bodies are kept in `body_chunks` (rows of older versions are dropped).
    static let schemaVersion = 3
    /// The most body bytes one chunk row holds: what SQLite holds in memory at once for a body.
    static let chunkSize = 1 << 20
    static let busyTimeout: TimeInterval = 5

    let fileURL: URL
    private var database: SQLiteDatabase
    /// The key of the credential partitions' HMAC, shared by every process using the file. (Bytes,
    /// not Data: LeakSanitizer cannot follow Data's tagged storage pointer in a process that exits
    /// with the cache open, and reported it as leaked.)
    private(set) var partitionKey: [UInt8]
    /// Where damaged files went, for the owner to report.
    private(set) var movedAside: [URL] = []

    private let busyTimeout: TimeInterval

    init(fileURL: URL, busyTimeout: TimeInterval = CacheDatabase.busyTimeout) throws {
        self.fileURL = fileURL
        self.busyTimeout = busyTimeout
        try FileManager.default.createDirectory(at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        do {
            (database, partitionKey) = try Self.open(fileURL, busyTimeout: busyTimeout)
        } catch let failure as SQLiteDatabase.Failure where failure.isCorruption {
            movedAside.append(try Self.moveAside(fileURL))
            (database, partitionKey) = try Self.open(fileURL, busyTimeout: busyTimeout)
        }
    }

    private static func open(_ fileURL: URL, busyTimeout: TimeInterval) throws -> (SQLiteDatabase, key: [UInt8]) {
        try PrivateFile.prepare(fileURL.path, companions: ["-wal", "-shm"])
        let database = try SQLiteDatabase(path: fileURL.path, busyTimeout: busyTimeout)
        try database.execute("PRAGMA journal_mode=WAL")
        try database.execute("PRAGMA synchronous=NORMAL")
        var problems: [String] = []
        try database.query("PRAGMA quick_check") { problems.append($0.text(0)) }
        guard problems == ["ok"] else {
            throw SQLiteDatabase.Failure(code: 11 /* SQLITE_CORRUPT */, message: problems.prefix(3).joined(separator: "; "))
        }
        var version: Int64 = 0
        try database.query("PRAGMA user_version") { version = $0.integer(0) }
        if version != 0, version < schemaVersion {
            try database.execute("DROP TABLE IF EXISTS responses; DROP TABLE IF EXISTS body_chunks")
        }
        try database.execute("""
            CREATE TABLE IF NOT EXISTS responses (
                id INTEGER PRIMARY KEY,
                url TEXT NOT NULL,
                partition TEXT NOT NULL,
                variant TEXT NOT NULL,
                status INTEGER NOT NULL,
                headers BLOB NOT NULL,
                varying BLOB NOT NULL,
                body_size INTEGER NOT NULL,
                request_date REAL NOT NULL,
                response_date REAL NOT NULL,
                stored_at REAL NOT NULL,
                last_used REAL NOT NULL,
                size INTEGER NOT NULL,
                UNIQUE (url, partition, variant)
            );
            CREATE TABLE IF NOT EXISTS body_chunks (
                response INTEGER NOT NULL,
                seq INTEGER NOT NULL,
                bytes BLOB NOT NULL,
                PRIMARY KEY (response, seq)
            );
            CREATE TRIGGER IF NOT EXISTS responses_drop_body AFTER DELETE ON responses BEGIN
                DELETE FROM body_chunks WHERE response = old.id;
            END;
            CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL);
            CREATE INDEX IF NOT EXISTS responses_by_use ON responses (last_used);
            CREATE INDEX IF NOT EXISTS responses_by_storing ON responses (stored_at);
            PRAGMA user_version = \(schemaVersion);
            """)
        // The first process to get here chooses the key; every later one reads it.
        var generator = SystemRandomNumberGenerator()
        let candidate = Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        try database.query("INSERT OR IGNORE INTO secrets (name, value) VALUES ('partition-key', ?)", [.blob(candidate)])
        var key: [UInt8] = []
        try database.query("SELECT value FROM secrets WHERE name = 'partition-key'") { key = Array($0.blob(0)) }
        return (database, key)
    }

    /// Renames the file (and its WAL and shared-memory files) to `<name>.corrupt-<time>`.
    private static func moveAside(_ fileURL: URL) throws -> URL {
        let stamp = Int(Date().timeIntervalSince1970 * 1000)
        let target = fileURL.deletingLastPathComponent()
            .appendingPathComponent("\(fileURL.lastPathComponent).corrupt-\(stamp)")
        let manager = FileManager.default
        try manager.moveItem(at: fileURL, to: target)
        for suffix in ["-wal", "-shm"] {
            let companion = URL(fileURLWithPath: fileURL.path + suffix)
            if manager.fileExists(atPath: companion.path) {
                try? manager.moveItem(at: companion, to: URL(fileURLWithPath: target.path + suffix))
            }
        }
        return target
    }

    /// Runs `body`; when the file turns out damaged, moves it aside, starts a new one and runs
    /// `body` again.
    func recovering<Result>(_ body: (SQLiteDatabase) throws -> Result) throws -> Result {
        do {
            return try body(database)
        } catch let failure as SQLiteDatabase.Failure where failure.isCorruption {
            database.close()
            movedAside.append(try Self.moveAside(fileURL))
            (database, partitionKey) = try Self.open(fileURL, busyTimeout: busyTimeout)
            return try body(database)
        }
    }

    // MARK: Rows

    /// The variants stored for `url` in `partition`, read in one transaction.
    func entries(for url: URL, partition: String, now: Date) throws -> [HTTPCacheEntry] {
        try recovering { database in
            let key: [SQLiteDatabase.Value] = [.text(url.absoluteString), .text(partition)]
            let entries = try transaction(database, "BEGIN") {
                var rows: [(id: Int64, size: Int, entry: HTTPCacheEntry)] = []
                try database.query("""
                    SELECT id, body_size, status, headers, varying, request_date, response_date FROM responses
                    WHERE url = ? AND partition = ?
                    """, key) { row in
                    // A stored status was read from a three-digit status line: another is damage.
                    guard (100...999).contains(row.integer(2)) else { throw Self.damaged(row.integer(0), "it has no three-digit status code") }
                    rows.append((row.integer(0), Int(row.integer(1)), HTTPCacheEntry(
                        url: url, statusCode: Int(row.integer(2)), headers: EntryCoding.headers(row.blob(3)),
                        body: Data(), varyingRequestHeaders: EntryCoding.varying(row.blob(4)),
                        requestDate: Date(timeIntervalSince1970: row.real(5)),
                        responseDate: Date(timeIntervalSince1970: row.real(6)))))
                }
                return try rows.map { row in
                    var entry = row.entry
                    entry.body = try body(of: row.id, size: row.size, in: database)
                    return entry
                }
            }
            if !entries.isEmpty {
                try database.query("UPDATE responses SET last_used = ? WHERE url = ? AND partition = ?",
                                   [.real(now.timeIntervalSince1970)] + key)
            }
            return entries
        }
    }

    /// A recorded body size past which it is checked against the stored chunks before a buffer
    /// that large is made: a damaged row may record any size.
    private static let checkedBodySize = 64 << 20

    /// The body of response `id`, its chunks copied straight into one buffer of `size` bytes.
    private func body(of id: Int64, size: Int, in database: SQLiteDatabase) throws -> Data {
        guard size >= 0 else { throw Self.damaged(id, "its body has a negative size") }
        if size > Self.checkedBodySize, try storedBodySize(of: id, in: database) != size {
            throw Self.damagedBody(id)
        }
        var body = Data(count: size)
        var filled = 0
        try body.withUnsafeMutableBytes { buffer in
            try database.query("SELECT bytes FROM body_chunks WHERE response = ? ORDER BY seq", [.integer(id)]) { row in
                try row.withBlob(0) { chunk in
                    guard chunk.count <= size - filled else { throw Self.damagedBody(id) }
                    if let source = chunk.baseAddress { (buffer.baseAddress! + filled).copyMemory(from: source, byteCount: chunk.count) }
                    filled += chunk.count
                }
            }
        }
        guard filled == size else { throw Self.damagedBody(id) }
        return body
    }

    /// The bytes response `id`'s chunks hold (SQLite reads their lengths, not their contents).
    private func storedBodySize(of id: Int64, in database: SQLiteDatabase) throws -> Int {
        var total: Int64 = 0
        try database.query("SELECT COALESCE(SUM(length(bytes)), 0) FROM body_chunks WHERE response = ?",
                           [.integer(id)]) { total = $0.integer(0) }
        return Int(total)
    }

    private static func damagedBody(_ id: Int64) -> SQLiteDatabase.Failure {
        damaged(id, "its body does not have its recorded size")
    }

    private static func damaged(_ id: Int64, _ reason: String) -> SQLiteDatabase.Failure {
        SQLiteDatabase.Failure(code: 11 /* SQLITE_CORRUPT */, message: "stored response \(id) is damaged: \(reason)")
    }

    /// Stores `entry` in `partition` (replacing its variant there), its body in chunks, then evicts
    /// the least recently used rows until the stored bytes fit `capacity`.
    func store(_ entry: HTTPCacheEntry, partition: String, now: Date, capacity: Int) throws {
        let headers = EntryCoding.encode(entry.headers), varying = EntryCoding.encode(entry.varyingRequestHeaders)
        let size = entry.body.count + headers.count + varying.count + entry.url.absoluteString.utf8.count
        let variant = EntryCoding.variantKey(entry.varyingRequestHeaders)
        try recovering { database in
            try transaction(database, "BEGIN IMMEDIATE") {
                try database.query("DELETE FROM responses WHERE url = ? AND partition = ? AND variant = ?",
                                   [.text(entry.url.absoluteString), .text(partition), .text(variant)])
                try database.query("""
                    INSERT INTO responses (url, partition, variant, status, headers, varying, body_size,
                        request_date, response_date, stored_at, last_used, size) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [.text(entry.url.absoluteString), .text(partition), .text(variant),
                          .integer(Int64(entry.statusCode)), .blob(headers), .blob(varying), .integer(Int64(entry.body.count)),
                          .real(entry.requestDate.timeIntervalSince1970), .real(entry.responseDate.timeIntervalSince1970),
                          .real(now.timeIntervalSince1970), .real(now.timeIntervalSince1970), .integer(Int64(size))])
                let id = database.lastInsertedRowID
                // Slices share the body's storage: SQLite copies one chunk at a time.
                for (seq, start) in stride(from: entry.body.startIndex, to: entry.body.endIndex, by: Self.chunkSize).enumerated() {
                    let chunk = entry.body[start..<min(start + Self.chunkSize, entry.body.endIndex)]
                    try database.query("INSERT INTO body_chunks (response, seq, bytes) VALUES (?, ?, ?)",
                                       [.integer(id), .integer(Int64(seq)), .blob(chunk)])
                }
                try evict(database, capacity: capacity)
            }
        }
    }

    /// Runs `body` between `begin` and COMMIT, rolling back when it throws.
    private func transaction<Result>(_ database: SQLiteDatabase, _ begin: String, _ body: () throws -> Result) throws -> Result {
        try database.execute(begin)
        do {
            let result = try body()
            try database.execute("COMMIT")
            return result
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    private func evict(_ database: SQLiteDatabase, capacity: Int) throws {
        var total: Int64 = 0
        try database.query("SELECT COALESCE(SUM(size), 0) FROM responses") { total = $0.integer(0) }
        while total > Int64(capacity) {
            var victims: [(Int64, Int64)] = []
            try database.query("SELECT id, size FROM responses ORDER BY last_used, id LIMIT 64") {
                victims.append(($0.integer(0), $0.integer(1)))
            }
            guard !victims.isEmpty else { return }
            for (id, size) in victims where total > Int64(capacity) {
                try database.query("DELETE FROM responses WHERE id = ?", [.integer(id)])
                total -= size
            }
        }
    }

    /// Records that these URLs were used at these times (answered from memory meanwhile).
    func markUsed(_ uses: [URL: Date]) throws {
        guard !uses.isEmpty else { return }
        try recovering { database in
            for (url, date) in uses {
                try database.query("UPDATE responses SET last_used = max(last_used, ?) WHERE url = ?",
                                   [.real(date.timeIntervalSince1970), .text(url.absoluteString)])
            }
        }
    }

    func remove(url: URL) throws {
        try recovering { try $0.query("DELETE FROM responses WHERE url = ?", [.text(url.absoluteString)]) }
    }

    func removeAll() throws {
        try recovering { try $0.execute("DELETE FROM responses; DELETE FROM body_chunks") }
    }

    func remove(storedSince date: Date) throws {
        try recovering { try $0.query("DELETE FROM responses WHERE stored_at >= ?", [.real(date.timeIntervalSince1970)]) }
    }

    /// A number that changes when another connection (another process) commits a change.
    func dataVersion() throws -> Int64 {
        try recovering { database in
            var version: Int64 = 0
            try database.query("PRAGMA data_version") { version = $0.integer(0) }
            return version
        }
    }

    /// The bytes of stored rows.
    func storedSize() throws -> Int {
        try recovering { database in
            var total: Int64 = 0
            try database.query("SELECT COALESCE(SUM(size), 0) FROM responses") { total = $0.integer(0) }
            return Int(total)
        }
    }
}
