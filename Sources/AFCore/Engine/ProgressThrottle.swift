import Dispatch

/// Paces the byte counts transfers report: at most one report per transfer each `interval`, so
/// a fast transfer does not queue work on its request's queue for every chunk curl moves (tens of
/// thousands a gigabyte). Counts that come sooner are held; the engine reports them once their
/// time comes, even if the transfer stalls, and a transfer's last counts when it ends, before its
/// completion (`Transfer.reportHeldProgress`; the next pass then takes it off the list). State of
/// the holder of the engine's lock.
final class ProgressThrottle {
    /// The least time between two reports of one transfer, in nanoseconds.
    static let interval: UInt64 = 10_000_000

    /// The transfers that held counts back since the last pass, each once.
    private var holding: [Transfer] = []

    /// Notes that `transfer` holds counts back.
    func hold(_ transfer: Transfer) {
        guard !transfer.isInProgressThrottle else { return }
        transfer.isInProgressThrottle = true
        holding.append(transfer)
    }

    /// Reports the held counts whose time has come; returns when the next is due (uptime
    /// nanoseconds), `UInt64.max` when none is held.
    func reportDue(now: UInt64) -> UInt64 {
        guard !holding.isEmpty else { return .max }
        var next = UInt64.max
        holding.removeAll { transfer in
            if let due = transfer.heldProgressDue {
                guard due <= now else {
                    next = min(next, due)
                    return false
                }
                transfer.reportHeldProgress(now: now)
            }
            transfer.isInProgressThrottle = false
            return true
        }
        return next
    }

    /// When the next held counts are due (uptime nanoseconds), `UInt64.max` when none is held.
    var nextDue: UInt64 {
        holding.reduce(UInt64.max) { min($0, $1.heldProgressDue ?? .max) }
    }
}
