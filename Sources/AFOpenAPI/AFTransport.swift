import AFCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import OpenAPIRuntime

/// A `ClientTransport` that sends a generated OpenAPI client's requests through an AF `Session`,
/// with the Session's interceptors, retry policy, trust, cache, event monitors and metrics.
///
/// Bodies stream both ways: a request body is read as it is sent, and the response body is
/// handed over as it arrives, pausing the transfer while the consumer is behind. Cancelling the
/// calling task cancels the request. Errors reach the client as AF's `AFError`, which the
/// generated client wraps in `ClientError`.
public struct AFTransport: ClientTransport {
    /// How the transport uses its Session.
    public struct Configuration: Sendable {
        /// The Session requests are made on.
        public var session: Session
        /// An interceptor for this transport's requests, after the Session's own.
        public var interceptor: (any RequestInterceptor)?
        /// Request bodies of a known length up to this many bytes that can be read more than
        /// once are sent from memory, so a retry or a 307/308 redirect can send them again;
        /// larger ones, and bodies that can be read only once, are streamed. Default 1 MiB.
        public var replayableBodyLimit: Int

        /// A configuration on `session` (by default `Session.default`).
        public init(session: Session = .default, interceptor: (any RequestInterceptor)? = nil,
                    replayableBodyLimit: Int = 1 << 20) {
            self.session = session
            self.interceptor = interceptor
            self.replayableBodyLimit = replayableBodyLimit
        }
    }

    /// What the transport uses.
    public var configuration: Configuration

    /// A transport with `configuration`.
    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// A transport on `session`.
    public init(session: Session) {
        self.init(configuration: Configuration(session: session))
    }

    /// Sends one operation's request; returns the response head with its body still arriving.
    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL,
                     operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        var urlRequest = try URLRequest(request, baseURL: baseURL)
        try await attach(body, to: &urlRequest)
        let exchange = configuration.session.streamRequest(urlRequest, interceptor: configuration.interceptor)
        // The head handler is set before the body stream starts the request.
        let heads = exchange.httpResponses()
        let events = exchange.streamTask().streamingData()
        let head = await withTaskCancellationHandler {
            var iterator = heads.makeAsyncIterator()
            return await iterator.next()
        } onCancel: {
            exchange.cancel()
        }
        guard let head else {
            // The request ended without a response: its completion says why.
            throw await ResponseBodySequence(events: events).failure()
        }
        guard let response = HTTPResponse(head) else {
            exchange.cancel()
            throw AFError.sessionTaskFailed(error: URLError(.badServerResponse))
        }
        guard Self.hasBody(response, method: request.method) else {
            exchange.cancel()
            return (response, nil)
        }
        let body = HTTPBody(ResponseBodySequence(events: events),
                            length: Self.bodyLength(of: head), iterationBehavior: .single)
        return (response, body)
    }

    /// Puts `body` on `urlRequest`: in memory when it is small and can be read again, else as a
    /// stream read while it is sent.
    private func attach(_ body: HTTPBody?, to urlRequest: inout URLRequest) async throws {
        guard let body else { return }
        if case let .known(length) = body.length {
            if urlRequest.value(forHTTPHeaderField: "Content-Length") == nil {
                urlRequest.setValue(String(length), forHTTPHeaderField: "Content-Length")
            }
            if length <= configuration.replayableBodyLimit, body.iterationBehavior == .multiple {
                urlRequest.httpBody = try await Data(collecting: body, upTo: configuration.replayableBodyLimit)
                return
            }
        }
        urlRequest.httpBodyStream = HTTPBodyInputStream(body)
    }

    /// Whether a response to `method` with this status carries a body.
    private static func hasBody(_ response: HTTPResponse, method: HTTPRequest.Method) -> Bool {
        method != .head && response.status.code != 204 && response.status.code != 304
    }

    /// The body's length when the head states it and it reaches the caller as sent (curl
    /// decodes a `Content-Encoding`, which changes the length).
    private static func bodyLength(of head: HTTPURLResponse) -> HTTPBody.Length {
        let encoding = head.value(forHTTPHeaderField: "Content-Encoding")
        guard head.expectedContentLength >= 0, encoding == nil || encoding == "identity" else { return .unknown }
        return .known(head.expectedContentLength)
    }
}
