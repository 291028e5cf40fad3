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
