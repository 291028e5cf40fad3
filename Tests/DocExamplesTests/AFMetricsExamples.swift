import AFCore
import AFMetrics
import Metrics

// Plugins/AFMetrics/AFMetrics.docc/AFMetrics.md
func afMetricsExample(backend: any MetricsFactory) async throws {
    MetricsSystem.bootstrap(backend)   // once per process: a Prometheus or StatsD backend, say

    let session = Session(eventMonitors: [MetricsEventMonitor(prefix: "my_daemon")])
    let items = try await session.request("https://api.example.com/v1/items").validate().serializingData().value
    // Recorded when the request ends, labelled host="api.example.com", method="GET", status="2xx":
    // my_daemon_requests_total, my_daemon_request_duration_seconds (a timer),
    // my_daemon_response_bytes_total and my_daemon_request_bytes_total.
    print(items.count)
}
