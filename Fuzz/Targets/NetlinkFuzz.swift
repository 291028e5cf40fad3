import CNetlink
import Foundation

/// The input as the kernel's answer to both rtnetlink questions, in a buffer of exactly its size
/// (aligned as a received datagram is), so a read past the answer is caught by the sanitizer.
/// Checks: the interface index is never negative without an error; a link name is terminated.
enum NetlinkFuzz {
    static func run(_ input: Data) -> [String] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(input.count, 1), alignment: 8)
        defer { buffer.deallocate() }
        input.copyBytes(to: buffer.bindMemory(to: UInt8.self), count: input.count)
        let answer = UnsafeRawPointer(buffer.baseAddress!)
        var problems: [String] = []
        let index = afn_parse_route_answer(answer, input.count)
        if index < -1 { problems.append("route answer gave \(index)") }
        var link = afn_link()
        if afn_parse_link_answer(answer, input.count, &link) == 1, withUnsafeBytes(of: link.name, { $0.last }) != 0 {
            problems.append("link name not terminated")
        }
        return problems
    }
}
