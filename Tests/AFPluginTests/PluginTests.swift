import AFCore
import AFLogging
import AFMetrics
import AFTestSupport
import AFTracing
import Foundation
import InMemoryTracing
import Logging
import MetricsTestKit
import Testing
import Tracing

/// The first-party plugins, each installed on a Session through AFCore's public hooks only.
@Suite(.timeLimit(.minutes(1))) struct PluginTests {
    /// Runs `body` with a Session carrying `monitors` (and `interceptor`), and waits until the
    /// monitors handled every finished request: a last monitor on the same serial queue signals.
    static func withSession(monitors: [any EventMonitor], interceptor: (any RequestInterceptor)? = nil, queue: DispatchQueue,
                            requests: Int, _ body: (Session) async -> Void) async {
        let finished = DispatchSemaphore(value: 0)
        let witness = ClosureEventMonitor(queue: queue)
        witness.requestDidFinish = { _ in finished.signal() }
        let session = makeSession(interceptor: interceptor, eventMonitors: monitors + [witness])
        await body(session)
        for _ in 0..<requests {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    _ = finished.wait(timeout: .now() + 20)
                    continuation.resume()
                }
            }
        }
        withExtendedLifetime(session) {}
    }

    @Test func loggingWritesOneRedactedLinePerRequestAndHeadersAtDebug() async throws {
        let sink = LogSink()
        var logger = Logger(label: "test") { _ in sink }
        logger.logLevel = .debug
        let queue = DispatchQueue(label: "test.logging")
        await Self.withSession(monitors: [LoggingEventMonitor(logger: logger, queue: queue)], queue: queue, requests: 1) { session in
            _ = await session.request(Server.httpbin("/get?token=s3cret&page=2"),
                                      headers: [.authorization(bearerToken: "t0ken"), HTTPHeader(name: "Cookie", value: "session=c00kie")])
                .serializingData().response
        }
        let lines = sink.lines
        let summary = try #require(lines.first { $0.hasPrefix("GET ") })
        #expect(summary.contains("/get?token=REDACTED&page=2") && summary.contains(" 200 ") && summary.contains("http/1.1"), "\(summary)")
        #expect(summary.range(of: #" \d+ ms \d+ B "#, options: .regularExpression) != nil, "\(summary)")
        let all = lines.joined(separator: "\n") + sink.metadataLines.joined(separator: "\n")
        #expect(!all.contains("s3cret") && !all.contains("t0ken") && !all.contains("c00kie"))
        #expect(sink.metadataLines.contains { $0.contains("Authorization: REDACTED") })
    }

    @Test func metricsCountTimeAndMeasureByHostMethodAndStatusClass() async throws {
        let metrics = TestMetrics()
        let queue = DispatchQueue(label: "test.metrics")
        await Self.withSession(monitors: [MetricsEventMonitor(factory: metrics, queue: queue)], queue: queue, requests: 3) { session in
            _ = await session.request(Server.httpbin("/bytes/100")).serializingData().response
            _ = await session.request(Server.httpbin("/status/404")).serializingData().response
            _ = await session.request(Server.httpbin("/post"), method: .post, parameters: ["a": "b"]).serializingData().response
        }
        let host = try #require(URL(string: Server.httpbin("/"))?.host)
        #expect(metrics.counterTotal(label: "af_requests_total", dimensions: [("host", host), ("method", "GET"), ("status", "2xx")]) == 1)
        #expect(metrics.counterTotal(label: "af_requests_total", dimensions: [("status", "4xx")]) == 1)
        #expect(metrics.counterTotal(label: "af_requests_total", dimensions: [("method", "POST")]) == 1)
        #expect(metrics.counterTotal(label: "af_response_bytes_total", dimensions: [("method", "GET"), ("status", "2xx")]) == 100)
        #expect(metrics.counterTotal(label: "af_request_bytes_total", dimensions: [("method", "POST")]) > 0)
        let timer = try metrics.expectTimer("af_request_duration_seconds", [("host", host), ("method", "GET"), ("status", "2xx")])
        #expect(timer.values.count == 1 && timer.values[0] > 0)
    }

    @Test func tracingStartsOneSpanPerRequestAcrossRetriesAndInjectsItsContext() async throws {
        let tracer = InMemoryTracer()
        let queue = DispatchQueue(label: "test.tracing")
        let plugin = TracingPlugin(tracer: tracer, queue: queue)
        let key = uniqueKey()
        let sent = Protected<[String?]>([])
        let recorder = Adapter { request, _, completion in
            sent.withLock { $0.append(request.value(forHTTPHeaderField: InMemoryTracer.traceIDKey)) }
            completion(.success(request))
        }
        let interceptor = Interceptor(adapters: [plugin, recorder], retriers: [RetryPolicy()])
        await Self.withSession(monitors: [plugin], interceptor: interceptor, queue: queue, requests: 1) { session in
            _ = await session.request(Server.faults("/flaky/\(key)?fail=1")).validate().serializingData().response
        }
        let spans = tracer.finishedSpans
        #expect(spans.count == 1)
        let span = try #require(spans.first)
        #expect(span.operationName == "HTTP GET" && span.kind == .client)
        #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == 200.toSpanAttribute())
        #expect(span.attributes["http.resend_count"]?.toSpanAttribute() == 1.toSpanAttribute())
        // Both attempts carried the span's trace id.
        #expect(sent.value.count == 2 && sent.value.allSatisfy { $0 == span.traceID })
    }
}

/// A swift-log handler that keeps what it is given.
final class LogSink: LogHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    private var storedMetadata: [String] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    var lines: [String] { lock.withLock { stored } }
    var metadataLines: [String] { lock.withLock { storedMetadata } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lock.withLock {
            stored.append(event.message.description)
            storedMetadata.append((event.metadata ?? [:]).map { "\($0.key)=\($0.value)" }.joined(separator: " "))
        }
    }
}
