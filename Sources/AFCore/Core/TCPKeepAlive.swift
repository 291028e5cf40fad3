import Foundation

/// TCP keep-alive probes on a session's connections, so that a peer gone silent (a host that
/// vanished, a path that broke without a word) is found even while a request waits on a quiet
/// connection with a long timeout. A `Session`'s `tcpKeepAlive`; nil leaves probes off.
public struct TCPKeepAlive: Sendable, Hashable {
    /// Seconds without traffic before the first probe.
    public var idle: TimeInterval
    /// Seconds between unanswered probes.
    public var interval: TimeInterval
    /// Unanswered probes after which the connection is given up
    /// (`URLError.networkConnectionLost`).
    public var count: Int

    /// Probes after `idle` seconds of silence, every `interval` seconds, `count` of them.
    public init(idle: TimeInterval = 30, interval: TimeInterval = 10, count: Int = 3) {
        self.idle = idle
        self.interval = interval
        self.count = count
    }

    /// A first probe after 30 s of silence, then every 10 s: a dead peer is found within a minute.
    public static let `default` = TCPKeepAlive()
}
