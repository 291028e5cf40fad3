import Foundation

/// A one-line progress bar on standard error, drawn at most ten times a second, only when
/// standard error is a terminal.
final class ProgressBar: @unchecked Sendable {
    private let lock = NSLock()
    private var lastDrawn = Date.distantPast
    private let enabled = isatty(STDERR_FILENO) == 1
    private let start = Date()

    func show(_ progress: Progress) {
        guard enabled else { return }
        let now = Date()
        lock.lock()
        defer { lock.unlock() }
        guard now.timeIntervalSince(lastDrawn) >= 0.1 else { return }
        lastDrawn = now
        let done = progress.completedUnitCount, total = progress.totalUnitCount
        let rate = Double(done) / max(now.timeIntervalSince(start), 0.001)
        var line: String
        if total > 0 {
            let fraction = min(1, Double(done) / Double(total))
            let filled = Int(fraction * 30)
            line = "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled) + "] "
            line += String(format: "%3.0f%% %@ of %@", fraction * 100, Self.bytes(Double(done)), Self.bytes(Double(total)))
        } else {
            line = Self.bytes(Double(done))
        }
        line += " " + Self.bytes(rate) + "/s"
        FileHandle.standardError.write(Data(("\r" + line + "\u{1B}[K").utf8))
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    static func bytes(_ count: Double) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = count, unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(Int(value)) B" : String(format: "%.1f %@", value, units[unit])
    }
}
