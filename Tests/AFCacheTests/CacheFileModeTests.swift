@testable import AFCache
import AFCore
import AFTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// The cache's files may hold responses to authenticated requests: only their owner can read
/// them, whatever the umask; a symbolic link planted at the path is refused, and so is a
/// directory where someone else could replace the files.
@Suite(.serialized) struct CacheFileModeTests {
    private static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    /// The umask belongs to the process: opened here, it would reach every test running beside
    /// this one (a directory another test makes meanwhile would be writable by all, and refused),
    /// so the cache is made and checked in a child process: this test binary, running
    /// `OpenUmaskChild`, which fails unless every mode is right.
    @Test func theDirectoryIsPrivateAndTheFilesOwnerOnlyUnderAnOpenUmask() async throws {
        let scratch = SQLiteURLCacheTests.Scratch()
        let file = scratch.directory.appendingPathComponent("nested/cache.sqlite")
        let child = try startChildSuite("OpenUmaskChild", adding: [OpenUmaskChild.fileKey: file.path])
        #expect(try await child.end() == 0, "the child's standard error: \(child.errors)")
        // The child ran: its cache is there (SQLite removed -wal and -shm as it closed).
        #expect(Self.mode(file.path) == 0o600)
        #expect(Self.mode(scratch.directory.path) == 0o700)
    }

    static func expectPrivateModes(of file: URL, in scratch: URL) {
        #expect(mode(file.deletingLastPathComponent().path) == 0o700)
        #expect(mode(scratch.path) == 0o700)
        for suffix in ["", "-wal", "-shm"] {
            #expect(mode(file.path + suffix) == 0o600, "cache.sqlite\(suffix)")
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

    /// A directory of `mode` (and `owner`, when given) inside the scratch directory.
    private static func directory(_ scratch: SQLiteURLCacheTests.Scratch, mode: mode_t, owner: uid_t? = nil) throws -> URL {
        let directory = scratch.directory.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        #expect(chmod(directory.path, mode) == 0)
        if let owner { #expect(chown(directory.path, owner, gid_t(owner)) == 0) }
        return directory
    }

    @Test(arguments: [mode_t(0o777), 0o770, 0o757])
    func aDirectoryOthersCanWriteToIsRefused(mode: mode_t) throws {
        let scratch = SQLiteURLCacheTests.Scratch()
        let file = try Self.directory(scratch, mode: mode).appendingPathComponent("cache.sqlite")
        #expect(throws: PrivateFile.Failure.self) { try SQLiteURLCache(fileURL: file) }
        #expect(!FileManager.default.fileExists(atPath: file.path), "nothing is created there")
    }

    @Test func aStickyDirectoryOthersCanWriteToIsUsed() throws {
        let scratch = SQLiteURLCacheTests.Scratch()
        let file = try Self.directory(scratch, mode: 0o1777).appendingPathComponent("cache.sqlite")
        let cache = try SQLiteURLCache(fileURL: file)
        cache.storeEntry(SQLiteURLCacheTests.entry("http://example.test/sticky"))
        #expect(SQLiteURLCacheTests.cached(cache, "http://example.test/sticky") == "body")
    }

    /// Root can make files and directories of another user (nobody) to plant.
    @Test(.enabled(if: geteuid() == 0)) func anotherUsersDirectoryOrCompanionFileIsRefused() throws {
        let nobody: uid_t = 65534
        let scratch = SQLiteURLCacheTests.Scratch()
        let theirs = try Self.directory(scratch, mode: 0o755, owner: nobody).appendingPathComponent("cache.sqlite")
        #expect(throws: PrivateFile.Failure.self) { try SQLiteURLCache(fileURL: theirs) }

        // In a sticky directory, a -wal someone else made first.
        let sticky = scratch.directory.appendingPathComponent("sticky")
        try FileManager.default.createDirectory(at: sticky, withIntermediateDirectories: false)
        #expect(chmod(sticky.path, 0o1777) == 0)
        let file = sticky.appendingPathComponent("cache.sqlite")
        #expect(FileManager.default.createFile(atPath: file.path + "-wal", contents: nil))
        #expect(chown(file.path + "-wal", nobody, gid_t(nobody)) == 0)
        #expect(throws: PrivateFile.Failure.self) { try SQLiteURLCache(fileURL: file) }
    }

    /// The -wal and -shm are made by AF, owner-only, before SQLite opens the file: no one can
    /// make them first and have SQLite write through theirs.
    @Test func theCompanionFilesAreMadeBeforeSQLiteOpens() throws {
        let scratch = SQLiteURLCacheTests.Scratch()
        try FileManager.default.createDirectory(at: scratch.directory, withIntermediateDirectories: true)
        try PrivateFile.prepare(scratch.file.path, companions: ["-wal", "-shm"])
        for suffix in ["", "-wal", "-shm"] {
            #expect(Self.mode(scratch.file.path + suffix) == 0o600, "cache.sqlite\(suffix)")
        }
    }
}

/// Makes a cache under a wide-open umask, in a child process (see
/// `CacheFileModeTests.theDirectoryIsPrivateAndTheFilesOwnerOnlyUnderAnOpenUmask`).
@Suite struct OpenUmaskChild {
    static let fileKey = "AF_CACHE_OPEN_UMASK_FILE"

    @Test(.enabled(if: ProcessInfo.processInfo.environment[fileKey] != nil))
    func makeTheCache() throws {
        umask(0)
        let file = URL(fileURLWithPath: ProcessInfo.processInfo.environment[Self.fileKey]!)
        let cache = try SQLiteURLCache(fileURL: file)
        cache.storeEntry(SQLiteURLCacheTests.entry("http://example.test/mode"))
        CacheFileModeTests.expectPrivateModes(of: file, in: file.deletingLastPathComponent().deletingLastPathComponent())
    }
}
