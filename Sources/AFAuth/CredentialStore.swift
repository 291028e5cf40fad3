import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A credential kept in one file between runs of a daemon, as JSON: the file is readable and
/// writable by its owner only (0600, in a directory made 0700 when missing), and each save
/// replaces it whole (written beside it, flushed, renamed over it), so a crash mid-save leaves
/// the previous credential, never half of one.
public struct CredentialStore<Credential: Codable & Sendable>: Sendable {
    /// The file the credential is kept in.
    public let fileURL: URL

    /// A store in `fileURL` (nothing is read or written until asked).
    public init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// The stored credential; nil when none is stored. Throws when the file cannot be read or
    /// decoded, or when others than its owner may read or write it (it is then not trusted).
    public func load() throws -> Credential? {
        let path = fileURL.path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw CredentialStoreError(.unreadable, path: path, detail: String(cString: strerror(errno)))
        }
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw CredentialStoreError(.unreadable, path: path, detail: String(cString: strerror(errno)))
        }
        guard status.st_uid == geteuid(), status.st_mode & 0o077 == 0 else {
            throw CredentialStoreError(.exposed, path: path,
                                       detail: "mode \(String(status.st_mode & 0o777, radix: 8)), owner \(status.st_uid)")
        }
        let data = try file.readToEnd() ?? Data()
        do {
            return try JSONDecoder().decode(Credential.self, from: data)
        } catch {
            throw CredentialStoreError(.undecodable, path: path, detail: "\(error)")
        }
    }

    /// Stores `credential` in place of what was stored.
    public func save(_ credential: Credential) throws {
        let data = try JSONEncoder().encode(credential)
        let directory = fileURL.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: directory.path) {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        var template = Array(directory.appendingPathComponent(".\(fileURL.lastPathComponent).XXXXXX").path.utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw CredentialStoreError(.unwritable, path: directory.path, detail: String(cString: strerror(errno)))
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        do {
            // mkstemp makes the file 0600 already; said again so that nothing else decides it.
            guard fchmod(descriptor, 0o600) == 0 else { throw CredentialStoreError.errno(.unwritable, temporary) }
            let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
            try file.write(contentsOf: data)
            guard fsync(descriptor) == 0 else { throw CredentialStoreError.errno(.unwritable, temporary) }
            close(descriptor)
            guard rename(temporary, fileURL.path) == 0 else { throw CredentialStoreError.errno(.unwritable, fileURL.path) }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error as? CredentialStoreError ?? CredentialStoreError(.unwritable, path: temporary, detail: "\(error)")
        }
        // The rename is durable once the directory is.
        let directoryDescriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// Forgets the stored credential (no error when none is stored).
    public func remove() throws {
        guard unlink(fileURL.path) == 0 || errno == ENOENT else {
            throw CredentialStoreError.errno(.unwritable, fileURL.path)
        }
    }
}

/// Why a `CredentialStore` could not load or save.
public struct CredentialStoreError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable {
        /// The file exists but could not be read.
        case unreadable
        /// Others than the file's owner may read or write it: its credential may have leaked or
        /// been replaced, so it is not used.
        case exposed
        /// The file holds no credential of the expected kind.
        case undecodable
        /// The credential could not be written.
        case unwritable
    }

    /// What went wrong.
    public let reason: Reason
    /// The file (or directory) concerned.
    public let path: String
    /// What the system or the decoder said.
    public let detail: String

    init(_ reason: Reason, path: String, detail: String) {
        self.reason = reason
        self.path = path
        self.detail = detail
    }

    static func errno(_ reason: Reason, _ path: String) -> CredentialStoreError {
        CredentialStoreError(reason, path: path, detail: String(cString: strerror(Glibc.errno)))
    }

    public var description: String {
        switch reason {
        case .unreadable: "cannot read the credential file \(path): \(detail)"
        case .exposed: "the credential file \(path) may be read or written by others (\(detail)); make it 0600 and owned by this user"
        case .undecodable: "the credential file \(path) holds no usable credential: \(detail)"
        case .unwritable: "cannot write the credential file \(path): \(detail)"
        }
    }
}
