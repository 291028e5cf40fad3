import CSQLite
import Foundation

/// One SQLite connection: statements with bound values, rows read by column, each statement
/// prepared once per connection and kept for its next use. Not thread-safe: its owner serialises
/// access.
final class SQLiteDatabase {
    /// A failed SQLite call: the result code and SQLite's message.
    struct Failure: Error, CustomStringConvertible {
        let code: Int32
        let message: String

        /// The file is damaged or is not a database.
        var isCorruption: Bool { primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB }
        /// The disk is full, or the database stayed locked past the busy timeout.
        var isTransient: Bool { [SQLITE_FULL, SQLITE_BUSY, SQLITE_LOCKED, SQLITE_IOERR].contains(primary) }
        var description: String { "SQLite error \(code): \(message)" }

        private var primary: Int32 { code & 0xFF }
    }

    /// A value to bind or read.
    enum Value {
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob(Data)
        case null
    }

    /// The current row of a query.
    struct Row {
        fileprivate let statement: OpaquePointer

        func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
        func real(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
        func text(_ column: Int32) -> String {
            sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
        }
        func blob(_ column: Int32) -> Data {
            withBlob(column) { Data($0) }
        }
        /// Lends the column's bytes (valid only during `body`) without copying them.
        func withBlob<Result>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
            let bytes = sqlite3_column_blob(statement, column)
            let count = Int(sqlite3_column_bytes(statement, column))
            return try body(UnsafeRawBufferPointer(start: count > 0 ? bytes : nil, count: count))
        }
    }

    /// A prepared statement kept for the next query of its SQL. Marked while a query runs it, so
    /// that a query of the same SQL inside that one's `row` prepares one of its own: the kept one
    /// stays in place rather than leaving the table and coming back (a removal moves its
    /// neighbours in the table, which cost more than the lookup).
    private final class KeptStatement {
        let statement: OpaquePointer
        var isRunning = true

        init(_ statement: OpaquePointer) {
            self.statement = statement
        }
    }

    private var handle: OpaquePointer?
    /// The kept statements, by the address of their SQL text (a literal).
    private var statements: [UnsafeRawPointer: KeptStatement] = [:]

    /// Opens (creating) the database at `path`, waiting up to `busyTimeout` for other
    /// connections' locks. A symbolic link at `path` is refused.
    init(path: String, busyTimeout: TimeInterval) throws {
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        let result = sqlite3_open_v2(path, &handle, flags, nil)
        guard result == SQLITE_OK else {
            let failure = Failure(code: result, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open")
            sqlite3_close(handle)
            handle = nil
            throw failure
        }
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Int32(busyTimeout * 1000))
    }

    deinit {
        close()
    }

    func close() {
        for kept in statements.values { sqlite3_finalize(kept.statement) }
        statements = [:]
        sqlite3_close_v2(handle)
        handle = nil
    }

    /// Runs one or more statements without values or results.
    func execute(_ sql: String) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil))
    }

    /// Runs `sql` with `values`, calling `row` for each result row. The statement is prepared on
    /// its first use and reused after (a query run inside another's `row` gets its own).
    func query(_ sql: StaticString, _ values: [Value] = [], row: (Row) throws -> Void = { _ in }) throws {
        let (statement, kept) = try takeStatement(sql)
        defer {
            // Ends the statement's read of the file and frees the copies of bound values.
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
            if let kept { kept.isRunning = false } else { sqlite3_finalize(statement) }
        }
        for (index, value) in values.enumerated() {
            try check(bind(value, to: Int32(index + 1), in: statement))
        }
        while true {
            let result = sqlite3_step(statement)
            if result == SQLITE_DONE { return }
            guard result == SQLITE_ROW else { return try check(result) }
            try row(Row(statement: statement))
        }
    }

    /// The prepared statement of `sql`: the kept one, marked running, or one prepared now, kept
    /// when `sql` has none yet. `kept` is nil for a statement to finalize after its query.
    private func takeStatement(_ sql: StaticString) throws -> (statement: OpaquePointer, kept: KeptStatement?) {
        let key = UnsafeRawPointer(sql.utf8Start)
        let kept = statements[key]
        if let kept, !kept.isRunning {
            kept.isRunning = true
            return (kept.statement, kept)
        }
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v2(handle, sql.utf8Start, Int32(sql.utf8CodeUnitCount), &statement, nil))
        guard let statement else { throw Failure(code: SQLITE_MISUSE, message: "no statement in \(sql)") }
        guard kept == nil else { return (statement, nil) }
        let keeping = KeptStatement(statement)
        statements[key] = keeping
        return (statement, keeping)
    }

    /// The row id the last successful INSERT gave its row.
    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// The prepared statements the connection holds, kept or running (for tests).
    var preparedStatementCount: Int {
        var count = 0
        var statement = sqlite3_next_stmt(handle, nil)
        while let current = statement {
            count += 1
            statement = sqlite3_next_stmt(handle, current)
        }
        return count
    }

    private func bind(_ value: Value, to index: Int32, in statement: OpaquePointer) -> Int32 {
        switch value {
        case let .integer(number): return sqlite3_bind_int64(statement, index, number)
        case let .real(number): return sqlite3_bind_double(statement, index, number)
        case let .text(text): return sqlite3_bind_text(statement, index, text, -1, transient)
        case .null: return sqlite3_bind_null(statement, index)
        case let .blob(data):
            return data.withUnsafeBytes { bytes in
                sqlite3_bind_blob64(statement, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(bytes.count), transient)
            }
        }
    }

    private func check(_ result: Int32) throws {
        guard result != SQLITE_OK, result != SQLITE_DONE, result != SQLITE_ROW else { return }
        throw Failure(code: result, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed")
    }
}

/// SQLite copies bound text and blobs at once (SQLITE_TRANSIENT, a macro Swift cannot import).
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
