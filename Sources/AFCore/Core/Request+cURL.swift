import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Request {
    /// The latest request as a `curl` command line, with the session's headers and cookies.
    public func cURLDescription() -> String {
        guard let request = lastRequest, let url = request.url,
              let method = request.httpMethod else {
            return "$ curl command could not be created"
        }

        var components = ["$ curl -v"]
        components.append("-X \(method)")
        switch (delegate as? Session)?.httpVersionPolicy {
        case .http1Only?: components.append("--http1.1")
        case let policy? where policy.speaksHTTP2WithoutNegotiation(scheme: url.scheme):
            components.append("--http2-prior-knowledge")
        default: break
        }

        let configuration = delegate?.sessionConfiguration
        if configuration?.httpShouldSetCookies == true, let storage = configuration?.httpCookieStorage,
           let cookies = storage.cookies(for: url), !cookies.isEmpty {
            let allCookies = cookies.map { "\($0.name)=\($0.value)" }.joined(separator: ";")
            components.append("-b \"\(allCookies)\"")
        }

        var headers = HTTPHeaders()
        if let sessionHeaders = configuration?.headers {
            for header in sessionHeaders where header.name != "Cookie" {
                headers[header.name] = header.value
            }
        }
        for header in request.headers where header.name != "Cookie" {
            headers[header.name] = header.value
        }
        for header in headers {
            let escapedValue = header.value.replacingOccurrences(of: "\"", with: "\\\"")
            components.append("-H \"\(header.name): \(escapedValue)\"")
        }

        if let body = request.httpBody {
            let bodyString = String(decoding: body, as: UTF8.self)
                .replacingOccurrences(of: "\\\"", with: "\\\\\"")
                .replacingOccurrences(of: "\"", with: "\\\"")
            components.append("-d \"\(bodyString)\"")
        }
        components.append("\"\(url.absoluteString)\"")
        return components.joined(separator: " \\\n\t")
    }

    /// Calls `handler` with the cURL description of every `URLRequest` made; replays the latest one.
    @discardableResult
    public func cURLDescription(on queue: DispatchQueue, calling handler: @escaping @Sendable (String) -> Void) -> Self {
        let hasRequest = mutableState.withLock { state -> Bool in
            if state.keepsAttemptHandlers { state.cURLHandler = (queue, handler) }
            return !state.requests.isEmpty
        }
        if hasRequest {
            let description = cURLDescription()
            queue.async { handler(description) }
        }
        return self
    }

    /// Calls `handler` on the request's queue with the cURL description of every `URLRequest` made.
    @discardableResult
    public func cURLDescription(calling handler: @escaping @Sendable (String) -> Void) -> Self {
        cURLDescription(on: underlyingQueue, calling: handler)
    }
}
