import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A type that can produce a `URL`.
public protocol URLConvertible: Sendable {
    /// The `URL`, or an `AFError.invalidURL` when none can be made.
    func asURL() throws -> URL
}

extension String: URLConvertible {
    /// The `URL` for this string; throws `AFError.invalidURL` when `URL(string:)` makes none. A
    /// URL without a scheme or host (`"invalid"`) is a URL: as with Alamofire, its request is
    /// made and fails (`URLError.unsupportedURL`), with the request and its metrics.
    public func asURL() throws -> URL {
        if let url = StringURLMemo.shared.url(for: self) { return url }
        guard let url = URL(string: self) else { throw AFError.invalidURL(url: self) }
        StringURLMemo.shared.keep(url, for: self)
        return url
    }
}

extension URL: URLConvertible {
    public func asURL() throws -> URL { self }
}

extension URLComponents: URLConvertible {
    /// The components' `URL`; throws `AFError.invalidURL` when they make none.
    public func asURL() throws -> URL {
        guard let url else { throw AFError.invalidURL(url: self) }
        return url
    }
}

/// A type that can produce a `URLRequest`.
public protocol URLRequestConvertible: Sendable {
    /// The `URLRequest`, or an error when none can be made.
    func asURLRequest() throws -> URLRequest
}

extension URLRequestConvertible {
    /// The `URLRequest`, or `nil` when `asURLRequest()` throws.
    public var urlRequest: URLRequest? { try? asURLRequest() }
}

extension URLRequest: URLRequestConvertible {
    public func asURLRequest() throws -> URLRequest { self }
}

extension URLRequest {
    /// Creates a request from a URL, a method and headers.
    public init(url: any URLConvertible, method: HTTPMethod, headers: HTTPHeaders? = nil) throws {
        let url = try url.asURL()
        self.init(url: url)
        // A new request already says GET and has no headers; setting the method costs ~4k
        // instructions (FoundationNetworking normalises it), so only a change is written.
        if method != .get { httpMethod = method.rawValue }
        if let headers { allHTTPHeaderFields = headers.dictionary }
    }

    /// The request's method as an `HTTPMethod`.
    public var method: HTTPMethod? {
        get { httpMethod.map(HTTPMethod.init) }
        set { httpMethod = newValue?.rawValue }
    }

    /// Throws `AFError.urlRequestValidationFailed(.bodyDataInGETRequest)` for a GET with a body.
    public func validate() throws {
        if let bodyData = httpBody, method == .get {
            throw AFError.urlRequestValidationFailed(reason: .bodyDataInGETRequest(bodyData))
        }
    }
}
