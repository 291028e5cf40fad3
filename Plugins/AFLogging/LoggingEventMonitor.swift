import AFCore
import Foundation
import Logging

/// Logs one line per finished request through swift-log: method, URL (secrets redacted),
/// status or error, duration, bytes received and protocol. At debug level, also the request
/// and response headers, credentials redacted.
public final class LoggingEventMonitor: EventMonitor, @unchecked Sendable {
    public let queue: DispatchQueue
    private let logger: Logger
    private let level: Logger.Level

    /// Creates a monitor writing to `logger`, its summary lines at `level`.
    public init(logger: Logger = Logger(label: "af"), level: Logger.Level = .info,
                queue: DispatchQueue = DispatchQueue(label: "org.af.plugins.logging")) {
        self.logger = logger
        self.level = level
        self.queue = queue
    }

    public func requestDidFinish(_ request: Request) {
        let sent = request.request
        let method = sent?.httpMethod ?? "GET"
        let url = Redaction.url(sent?.url ?? request.response?.url)
        let metrics = request.metrics
        let milliseconds = Int(((metrics?.taskInterval.duration ?? 0) * 1000).rounded())
        let bytes = metrics?.transactionMetrics.reduce(Int64(0)) { $0 + $1.countOfResponseBodyBytesReceived } ?? 0
        let proto = metrics?.transactionMetrics.last?.networkProtocolName ?? "-"
        let outcome = request.response.map { String($0.statusCode) } ?? "failed: \(request.error?.localizedDescription ?? "no response")"
        logger.log(level: level, "\(method) \(url) \(outcome) \(milliseconds) ms \(bytes) B \(proto)", metadata: [
            "request.id": .string(request.id.uuidString),
        ])
        guard logger.logLevel <= .debug else { return }
        if let sent {
            logger.debug("request headers", metadata: ["headers": .array(Redaction.headers(sent.headers).map { .string($0) })])
        }
        if let response = request.response {
            logger.debug("response headers", metadata: ["headers": .array(Redaction.headers(response.headers).map { .string($0) })])
        }
    }
}
