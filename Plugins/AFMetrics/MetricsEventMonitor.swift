import AFCore
import CoreMetrics
import Foundation

/// Records swift-metrics for each finished request, labelled by host, method and status class
/// (`2xx` … `5xx`, or `error`): `<prefix>_requests_total`, `<prefix>_request_duration_seconds`
/// (a timer), `<prefix>_response_bytes_total` and `<prefix>_request_bytes_total`.
public final class MetricsEventMonitor: EventMonitor, @unchecked Sendable {
    public let queue: DispatchQueue
    private let prefix: String
    private let factory: any MetricsFactory

    /// Creates a monitor recording through `factory` (by default the bootstrapped backend).
    public init(prefix: String = "af", factory: any MetricsFactory = MetricsSystem.factory,
                queue: DispatchQueue = DispatchQueue(label: "org.af.plugins.metrics")) {
        self.prefix = prefix
        self.factory = factory
        self.queue = queue
    }

    public func requestDidFinish(_ request: Request) {
        let dimensions = [("host", request.request?.url?.host ?? "-"), ("method", request.request?.httpMethod ?? "GET"),
                          ("status", Self.statusClass(request.response?.statusCode))]
        Counter(label: "\(prefix)_requests_total", dimensions: dimensions, factory: factory).increment()
        if let metrics = request.metrics {
            Timer(label: "\(prefix)_request_duration_seconds", dimensions: dimensions, factory: factory)
                .recordNanoseconds(Int64(metrics.taskInterval.duration * 1e9))
            let received = metrics.transactionMetrics.reduce(Int64(0)) { $0 + $1.countOfResponseBodyBytesReceived }
            let sent = metrics.transactionMetrics.reduce(Int64(0)) { $0 + $1.countOfRequestBodyBytesSent }
            Counter(label: "\(prefix)_response_bytes_total", dimensions: dimensions, factory: factory).increment(by: received)
            Counter(label: "\(prefix)_request_bytes_total", dimensions: dimensions, factory: factory).increment(by: sent)
        }
    }

    static func statusClass(_ code: Int?) -> String {
        guard let code, (100..<600).contains(code) else { return "error" }
        return "\(code / 100)xx"
    }
}
