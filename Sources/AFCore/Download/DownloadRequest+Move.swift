import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension DownloadRequest {
    /// Moves a finished download to `destination`. With `.removePreviousFile`, a file or link
    /// already there is replaced in one step, and only by a complete file: on another file
    /// system the download is first copied beside the destination. A directory there is never
    /// removed (the move fails), whoever chose the name.
    static func move(_ source: URL, to destination: URL, options: Options, using fileManager: FileManager) throws {
        if options.contains(.createIntermediateDirectories) {
            try fileManager.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        guard options.contains(.removePreviousFile) else {
            return try fileManager.moveItem(at: source, to: destination)
        }
        var status = stat()
        if lstat(destination.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw CocoaError(.fileWriteFileExists, userInfo: [
                NSFilePathErrorKey: destination.path,
                NSLocalizedDescriptionKey: "A directory is at the destination; removePreviousFile replaces only a file."])
        }
        if rename(source.path, destination.path) == 0 { return }
        guard errno == EXDEV else { throw POSIXError.current }
        let beside = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).AF-\(UUID().uuidString).tmp")
        do {
            try fileManager.copyItem(at: source, to: beside)
            guard rename(beside.path, destination.path) == 0 else { throw POSIXError.current }
        } catch {
            removeTemporaryFile(beside)
            throw error
        }
        removeTemporaryFile(source)
    }
}

extension POSIXError {
    /// The error `errno` names now.
    package static var current: POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}
