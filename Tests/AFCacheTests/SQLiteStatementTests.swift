@testable import AFCache
import Foundation
import Testing

/// The connection's kept statements: reused, and safe when the same SQL runs inside itself.
@Suite struct SQLiteStatementTests {
    @Test func aQueryRunInsideItsOwnRowsKeepsEveryStatementUsable() throws {
        let scratch = SQLiteURLCacheTests.Scratch()
        try FileManager.default.createDirectory(at: scratch.directory, withIntermediateDirectories: true)
        let database = try SQLiteDatabase(path: scratch.file.path, busyTimeout: 1)
        try database.execute("CREATE TABLE numbers (value INTEGER); INSERT INTO numbers VALUES (1), (2)")
        // One literal, so both levels use the same kept statement's key.
        let select: StaticString = "SELECT value FROM numbers ORDER BY value"
        func values() throws -> [Int64] {
            var read: [Int64] = []
            try database.query(select) { read.append($0.integer(0)) }
            return read
        }
        #expect(try values() == [1, 2])
        #expect(database.preparedStatementCount == 1)
        var nested: [[Int64]] = []
        var heldWhileNested: [Int] = []
        try database.query(select) { _ in
            nested.append(try values())
            heldWhileNested.append(database.preparedStatementCount)
        }
        #expect(nested == [[1, 2], [1, 2]])
        // The inner query ran a statement of its own, finalized after it; the kept one stays.
        #expect(heldWhileNested == [1, 1])
        #expect(database.preparedStatementCount == 1)
        // The statement kept after the nesting (one of the two) still runs, bound values and all.
        #expect(try values() == [1, 2])
        try database.query("INSERT INTO numbers VALUES (?)", [.integer(3)])
        try database.query("INSERT INTO numbers VALUES (?)", [.integer(4)])
        #expect(try values() == [1, 2, 3, 4])
        // One statement per SQL text, each prepared once and reused.
        #expect(database.preparedStatementCount == 2)
        database.close()
    }
}
