import AFCore
import AFTestSupport
import CNetlink
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A network namespace made for one test with `ip`: a veth pair whose inner end is in the
/// namespace (10.a.b.2/29, default route via the outer end 10.a.b.1/29, which stays in the
/// test's own namespace; 10.a.b.3 is free for renumbering, and 10.a.b.129 is an address of the
/// outer end that only the default route reaches). Deleted by `remove()`.
final class NetworkNamespace: @unchecked Sendable {
    let name: String
    let outer: String
    let inner: String
    let outerAddress: String
    let innerAddress: String
    /// A free address of the inner end's subnet.
    let spareAddress: String
    /// An address of the test's own namespace outside the subnet: only the default route leads there.
    let farAddress: String

    /// Whether this process may make namespaces (root, `ip` present, netns allowed).
    static let isPermitted: Bool = {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") || FileManager.default.isExecutableFile(atPath: "/sbin/ip") else {
            return false
        }
        let probe = "af-probe-\(getpid())"
        guard (try? run(["netns", "add", probe])) != nil else { return false }
        _ = try? run(["netns", "del", probe])
        return true
    }()

    /// The address blocks (10.x.y.0/24, as `x * 256 + y`) of this process's namespaces that
    /// exist; a namespace uses .1–.3 and .129 of its block. Two namespaces with one subnet would
    /// give the host two routes to it, and a reply could leave by the other namespace's link.
    private static let subnetsInUse = Protected<Set<Int>>([])
    private let subnet: Int

    init() throws {
        Self.leftoversRemoved
        let tag = String(UInt32.random(in: 0..<0xFF_FFFF), radix: 16)
        name = "af-\(getpid())-\(tag)"
        outer = "afo\(tag)"
        inner = "afi\(tag)"
        let taken = Self.subnetsOnTheHost()
        let chosen: Int? = Self.subnetsInUse.withLock { inUse in
            var free: [Int] = []
            for x in 200..<250 {
                for y in 0..<255 where !inUse.contains(x * 256 + y) && !taken.contains(x * 256 + y) {
                    free.append(x * 256 + y)
                }
            }
            let candidate = free.randomElement()
            if let candidate { inUse.insert(candidate) }
            return candidate
        }
        guard let chosen else { throw Failure(description: "no 10.200–249.x.0/24 block is free on this host") }
        subnet = chosen
        let first = subnet / 256, second = subnet % 256
        outerAddress = "10.\(first).\(second).1"
        innerAddress = "10.\(first).\(second).2"
        spareAddress = "10.\(first).\(second).3"
        farAddress = "10.\(first).\(second).129"
        do {
            try Self.run(["netns", "add", name])
        } catch {
            _ = Self.subnetsInUse.withLock { $0.remove(subnet) }
            throw error
        }
        do {
            try Self.run(["link", "add", outer, "type", "veth", "peer", "name", inner, "netns", name])
            try Self.run(["addr", "add", "\(outerAddress)/29", "dev", outer])
            try Self.run(["addr", "add", "\(farAddress)/32", "dev", outer])
            try Self.run(["link", "set", outer, "up"])
            try inside(["link", "set", "lo", "up"])
            // Removing the primary address keeps the secondary (a renumbering with overlap).
            try runInside(["sh", "-c", "echo 1 > /proc/sys/net/ipv4/conf/all/promote_secondaries"])
            try inside(["addr", "add", "\(innerAddress)/29", "dev", inner])
            try inside(["link", "set", inner, "up"])
            try inside(["route", "add", "default", "via", outerAddress])
        } catch {
            remove()
            throw error
        }
    }

    /// Deletes the namespace (its veth end, and so the pair, goes with it).
    func remove() {
        _ = try? Self.run(["netns", "del", name])
        _ = try? Self.run(["link", "del", outer])
        _ = Self.subnetsInUse.withLock { $0.remove(subnet) }
    }

    /// Deletes, once a process, the namespaces of test processes that no longer run (killed
    /// before their tests removed them): a namespace's name holds the pid of its process
    /// (`af-<pid>-<tag>`, or `af-probe-<pid>` for `isPermitted`'s). All test processes are
    /// assumed to share one pid namespace: one of another would look gone.
    private static let leftoversRemoved: Void = {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/run/netns")) ?? [] {
            let parts = name.split(separator: "-")
            guard parts.count == 3, parts[0] == "af", let pid = pid_t(parts[1] == "probe" ? parts[2] : parts[1]),
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            _ = try? run(["netns", "del", name])
        }
    }()

    /// The 10.x.y.0/24 blocks (as `x * 256 + y`) that an address or a route of the host reaches
    /// into, another test process's namespaces among them.
    private static func subnetsOnTheHost() -> Set<Int> {
        let text = [["addr", "show"], ["route", "show", "table", "all"]]
            .map { (try? run(["-4", "-o"] + $0)) ?? "" }.joined(separator: "\n")
        var subnets = Set<Int>()
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let parts = word.split(separator: "/")
            guard let address = parts.first else { continue }
            let octets = address.split(separator: ".").compactMap { Int($0) }
            guard octets.count == 4, octets[0] == 10, octets.allSatisfy({ (0...255).contains($0) }) else { continue }
            // A prefix shorter than /24 reaches into every block it spans.
            let length = parts.count == 2 ? min(max(Int(parts[1]) ?? 32, 8), 32) : 32
            let blocks = length >= 24 ? 1 : 1 << (24 - length)
            let first = (octets[1] * 256 + octets[2]) / blocks * blocks
            subnets.formUnion(first..<first + blocks)
        }
        return subnets
    }

    /// Runs `ip arguments` in the namespace.
    func inside(_ arguments: [String]) throws {
        try Self.run(["-n", name] + arguments)
    }

    /// Runs a program in the namespace (`ip netns exec`).
    func runInside(_ command: [String]) throws {
        try Self.run(["netns", "exec", name] + command)
    }

    /// Gives the inner end `spareAddress` beside its address, then takes the old one away, as a
    /// DHCP renewal that hands out a new address does; the default route stays.
    func renumber() throws {
        try inside(["addr", "add", "\(spareAddress)/29", "dev", inner])
        try inside(["addr", "del", "\(innerAddress)/29", "dev", inner])
        try inside(["route", "replace", "default", "via", outerAddress])
    }

    /// Runs `body` on a thread of its own that entered the namespace; what the body creates
    /// there (netlink sockets, a Session's engine thread) lives in the namespace.
    func enter<Result>(_ body: @escaping @Sendable () -> Result) -> Result {
        let box = ResultBox<Result>()
        let done = DispatchSemaphore(value: 0)
        let path = "/run/netns/\(name)"
        let thread = Thread {
            guard afn_enter_namespace(path) == 0 else { fatalError("cannot enter \(path)") }
            box.value = body()
            done.signal()
            // The thread ends here, still in the namespace: nothing else runs on it.
        }
        thread.start()
        done.wait()
        return box.value!
    }

    private final class ResultBox<Value>: @unchecked Sendable {
        var value: Value?
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        let ip = FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") ? "/usr/sbin/ip" : "/sbin/ip"
        let run = try runProgram(ip, arguments)
        guard run.status == 0 else {
            throw Failure(description: "ip \(arguments.joined(separator: " ")): \(String(decoding: run.errors, as: UTF8.self))")
        }
        return run.text
    }

    /// The netlink sockets of this process that live in the namespace.
    func ourNetlinkSockets() -> Int {
        let inodes = socketDescriptorsByInode()
        let table = enter { (try? procFileText("/proc/thread-self/net/netlink")) ?? "" }
        // Columns: sk Eth Pid Groups Rmem Wmem Dump Locks Drops Inode
        return table.split(separator: "\n").dropFirst().filter { line in
            line.split(separator: " ", omittingEmptySubsequences: true).last.map { inodes[$0] != nil } ?? false
        }.count
    }

    /// Whether thread `id` of this process is alive and named like the reachability monitor's
    /// (names are cut to 15 bytes).
    static func isMonitorThread(_ id: Int32) -> Bool {
        (try? String(contentsOfFile: "/proc/self/task/\(id)/comm", encoding: .utf8))?.hasPrefix("af-reachability") == true
    }

    /// Whether thread `id` of this process still exists (joined threads are gone at once).
    static func threadExists(_ id: Int32) -> Bool {
        FileManager.default.fileExists(atPath: "/proc/self/task/\(id)")
    }

    /// Whether the thread `id`, already joined, is gone from the process within `bound`
    /// seconds. A joined thread leaves `/proc/self/task` only once the kernel has reaped it,
    /// which can come a moment after the join returns; nothing announces it, so it is polled.
    static func threadEnds(_ id: Int32, within bound: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(bound)
        while threadExists(id) {
            guard Date() < deadline else { return false }
            usleep(1_000)
        }
        return true
    }
}
