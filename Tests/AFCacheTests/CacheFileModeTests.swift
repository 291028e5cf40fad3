@testable import AFCache
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// The cache's files may hold responses to authenticated requests: only their owner can read
/// them, whatever the umask, and a symbolic link planted at the path is refused.
@Suite(.serialized) struct CacheFileModeTests {
    private static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    @Test func theDirectoryIsPrivateAndTheFilesOwnerOnlyUnderAnOpenUmask() throws {
        let scratch = SQLiteURLCacheTests.Scratch()
        let file = scratch.directory.appendingPathComponent("nested/cache.sqlite")
        let previous = umask(0)
        defer { umask(previous) }
        let cache = try SQLiteURLCache(fileURL: file)
        cache.storeEntry(SQLiteURLCacheTests.entry("http://example.test/mode"))
        #expect(Self.mode(file.deletingLastPathComponent().path) == 0o700)
        #expect(Self.mode(scratch.directory.path) == 0o700)
        for suffix in ["", "-wal", "-shm"] {
            #expect(Self.mode(file.path + suffix) == 0o600, "cache.sqlite\(suffix)")
        }
    }

    @Test func anExistingReadableFileIsMadePrivate() throws {
        let scratch = SQLiteURLCacheTests.Scratch()
        try FileManager.default.createDirectory(at: scratch.directory, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: scratch.file.path, contents: nil, attributes: [.posixPermissions: 0o644]))
        _ = try SQLiteURLCache(fileURL: scratch.file)
        #expect(Self.mode(scratch.file.path) == 0o600)
    }

    @Test func aSymbolicLinkAtThePathIsRefused() throws {
        let scratch = SQLiteURLCacheTests.Scratch()
        try FileManager.default.createDirectory(at: scratch.directory, withIntermediateDirectories: true)
        let victim = scratch.directory.appendingPathComponent("victim")
        #expect(FileManager.default.createFile(atPath: victim.path, contents: Data("keep".utf8)))
        try FileManager.default.createSymbolicLink(atPath: scratch.file.path, withDestinationPath: victim.path)
        #expect(throws: (any Error).self) { try SQLiteURLCache(fileURL: scratch.file) }
        #expect(FileManager.default.contents(atPath: victim.path) == Data("keep".utf8))
    }
}
