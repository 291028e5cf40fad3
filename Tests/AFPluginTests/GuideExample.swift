import AFCore
import Foundation

// The plugin of the "Writing a plugin" article (AFCore.docc), word for word: the test beside this
// file keeps the guide's code compiling and doing what the guide says.

/// Stamps each attempt with an `X-Correlation-ID` header and reports requests slower than a limit.
final class CorrelationIDPlugin: RequestInterceptor, EventMonitor, @unchecked Sendable {
    let queue = DispatchQueue(label: "correlation-id-plugin")
    private let limit: TimeInterval
    private let report: @Sendable (_ id: UUID, _ seconds: TimeInterval) -> Void

    init(reportingSlowerThan limit: TimeInterval, report: @escaping @Sendable (UUID, TimeInterval) -> Void) {
        self.limit = limit
        self.report = report
    }

    // Adapter: runs before every attempt, retries included, on the session's rootQueue.
    func adapt(_ urlRequest: URLRequest, using state: RequestAdapterState,
               completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void) {
        var stamped = urlRequest
        stamped.headers.update(name: "X-Correlation-ID", value: state.requestID.uuidString)
        completion(.success(stamped))
    }

    // Monitor: runs on `queue` once the request is over, whatever the outcome.
    func requestDidFinish(_ request: Request) {
        guard let seconds = request.metrics?.taskInterval.duration, seconds > limit else { return }
        report(request.id, seconds)
    }
}

/// The article's last lines: the plugin installed as adapter and monitor.
func guideInstallation() {
    let plugin = CorrelationIDPlugin(reportingSlowerThan: 2) { id, seconds in print("slow: \(id) \(seconds) s") }
    let session = Session(interceptor: plugin, eventMonitors: [plugin])
    _ = session
}
