import Foundation

/// This process's sockets, by the inode `/proc/net/*` tables name them, with the descriptor of each.
package func socketDescriptorsByInode() -> [Substring: Int32] {
    let fileManager = FileManager.default
    var sockets: [Substring: Int32] = [:]
    for entry in (try? fileManager.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
        guard let descriptor = Int32(entry),
              let target = try? fileManager.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"),
              target.hasPrefix("socket:[") else { continue }
        sockets[target.dropFirst("socket:[".count).dropLast()] = descriptor
    }
    return sockets
}

/// The whole text of a `/proc` file. Read to the end: such a file's size reads as 0, and a read
/// sized from it gets only the first page.
package func procFileText(_ path: String) throws -> String {
    guard let handle = FileHandle(forReadingAtPath: path) else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path]) }
    defer { try? handle.close() }
    return String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
}
