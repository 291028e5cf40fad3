import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Files only their owner may read or write (0600) whatever the umask, never reached through a
/// symbolic link planted at their path.
package enum PrivateFile {
    /// Why a path cannot serve as a private file.
    package struct Failure: Error, CustomStringConvertible {
        package let path: String
        package let reason: String

        package var description: String { "\(path) cannot be used as a private file: \(reason)" }
    }

    /// Makes `path` and each `path + suffix` in `companions` regular files of this user's with
    /// mode 0600: creates them empty when missing (never through a symbolic link), so that no one
    /// else can create them first, and tightens the mode of existing ones. Throws when one is a
    /// symbolic link, not a regular file, or another user's, and when the directory holding
    /// them lets someone else replace them (see `checkDirectory`).
    package static func prepare(_ path: String, companions: [String] = []) throws {
        try checkDirectory(of: path)
        try tighten(path, creating: true)
        for suffix in companions { try tighten(path + suffix, creating: true) }
    }

    /// Throws unless the directory holding `path` belongs to this user or to root, and neither
    /// its group nor others may write to it; or, when they may, it is sticky (as /tmp is): then
    /// only a file's owner can rename or remove it, and `prepare` checks that every file is
    /// this user's.
    private static func checkDirectory(of path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        var info = stat()
        guard stat(directory.isEmpty ? "." : directory, &info) == 0 else {
            throw Failure(path: path, reason: "its directory cannot be read (\(String(cString: strerror(errno))))")
        }
        guard info.st_uid == geteuid() || info.st_uid == 0 else {
            throw Failure(path: path, reason: "its directory belongs to another user, who could replace it")
        }
        if info.st_mode & 0o022 != 0, info.st_mode & S_ISVTX == 0 {
            throw Failure(path: path, reason: "other users can write to its directory, which is not sticky, and could replace it")
        }
    }

    private static func tighten(_ path: String, creating: Bool) throws {
        let flags = O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | (creating ? O_CREAT : 0)
        let descriptor = open(path, flags, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT, !creating { return }
            throw Failure(path: path, reason: code == ELOOP ? "it is a symbolic link" : String(cString: strerror(code)))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw Failure(path: path, reason: "it is not a regular file")
        }
        guard info.st_uid == geteuid() else { throw Failure(path: path, reason: "it belongs to another user") }
        if info.st_mode & 0o7777 != 0o600, fchmod(descriptor, 0o600) != 0 {
            throw Failure(path: path, reason: String(cString: strerror(errno)))
        }
    }
}
