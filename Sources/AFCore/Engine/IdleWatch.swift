import Dispatch
import Foundation

/// An idle timeout curl cannot keep by itself: one that is not a whole number of seconds. curl's
/// low-speed check counts whole seconds (0.5 s ran for 1.5 s), so the transfer notes when bytes
/// last moved and the engine ends it once nothing moved for `limit`. Engine thread only.
struct IdleWatch {
    /// Nanoseconds without activity after which the transfer times out.
    let limit: UInt64
    /// When bytes last moved (uptime nanoseconds).
    private(set) var lastActivity: UInt64 = DispatchTime.now().uptimeNanoseconds
    /// Set while the transfer holds data back itself (its consumer is slow, or a decision on the
    /// response head is pending): that is not the server being idle.
    var holding = false

    /// A watch for `idleTimeout`, or nil when curl keeps it (none, or whole seconds).
    init?(idleTimeout: TimeInterval) {
        guard idleTimeout > 0, idleTimeout < TimeInterval(Int.max / 1_000_000_000),
              idleTimeout != idleTimeout.rounded(.down) else { return nil }
        limit = UInt64(idleTimeout * 1_000_000_000)
    }

    mutating func noteActivity(now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        lastActivity = now
        holding = false
    }

    /// Nanoseconds left before the transfer times out at `now` (0: it has), or nil while the
    /// transfer holds data back.
    func remaining(now: UInt64) -> UInt64? {
        guard !holding else { return nil }
        let idle = now >= lastActivity ? now - lastActivity : 0
        return idle >= limit ? 0 : limit - idle
    }
}
