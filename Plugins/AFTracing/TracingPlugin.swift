import AFCore
import Foundation
import Tracing

/// One client span per request, from its first attempt to its end, with its context injected
/// into every attempt's headers by the instrument (with an OpenTelemetry tracer: the W3C
/// `traceparent`). Install it twice: as an adapter (`Session(interceptor:)`, or in an
/// `Interceptor`) and as a monitor (`eventMonitors:`).
public final class TracingPlugin: RequestInterceptor, EventMonitor, @unchecked Sendable {
    public let queue: DispatchQueue
    private let tracer: any Tracer
    private let lock = NSLock()
    private var spans: [UUID: any Span] = [:]

    /// Creates the plugin over `tracer` (by default the bootstrapped one).
    public init(tracer: any Tracer = InstrumentationSystem.tracer,
                queue: DispatchQueue = DispatchQueue(label: "org.af.plugins.tracing")) {
        self.tracer = tracer
        self.queue = queue
    }

    // MARK: Adapter

    public func adapt(_ urlRequest: URLRequest, using state: RequestAdapterState,
                      completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void) {
        let span = lock.withLock { () -> any Span in
            if let existing = spans[state.requestID] { return existing }
            let method = urlRequest.httpMethod ?? "GET"
            let span = tracer.startAnySpan("HTTP \(method)", context: .topLevel, ofKind: .client)
            span.attributes["http.request.method"] = method
            span.attributes["url.full"] = urlRequest.url?.absoluteString ?? ""
            span.attributes["server.address"] = urlRequest.url?.host ?? ""
            spans[state.requestID] = span
            return span
        }
        var adapted = urlRequest
        tracer.inject(span.context, into: &adapted, using: HeaderInjector())
        completion(.success(adapted))
    }

    // MARK: Monitor

    public func requestDidFinish(_ request: Request) {
        guard let span = lock.withLock({ spans.removeValue(forKey: request.id) }) else { return }
        if let status = request.response?.statusCode {
            span.attributes["http.response.status_code"] = status
            if status >= 500 { span.setStatus(SpanStatus(code: .error)) }
        }
        if let error = request.error {
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error, message: error.localizedDescription))
        }
        span.attributes["http.resend_count"] = request.retryCount
        span.end()
    }
}

/// Writes propagation fields as request headers.
struct HeaderInjector: Injector {
    func inject(_ value: String, forKey key: String, into request: inout URLRequest) {
        request.setValue(value, forHTTPHeaderField: key)
    }
}
