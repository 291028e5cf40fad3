import AFCore
import Foundation
import Logging

/// A plugin of this daemon's own, written only against AFCore's public hooks as any user's
/// would be: warns about requests slower than `threshold`, with what the metrics say about them.
final class SlowRequestMonitor: EventMonitor, Sendable {
    let queue = DispatchQueue(label: "polling-daemon.slow-requests")
    private let threshold: TimeInterval
    private let logger: Logger

    init(threshold: TimeInterval, logger: Logger) {
        self.threshold = threshold
        self.logger = logger
    }

    func request(_ request: Request, didGatherMetrics metrics: TaskMetrics) {
        let duration = metrics.taskInterval.duration
        guard duration > threshold else { return }
        let last = metrics.transactionMetrics.last
        logger.warning("slow request", metadata: [
            "url": "\(request.request?.url?.absoluteString ?? "?")",
            "seconds": "\(String(format: "%.3f", duration))",
            "reusedConnection": "\(last?.isReusedConnection ?? false)",
            "fromCache": "\(last?.resourceFetchType == .localCache)",
        ])
    }
}
