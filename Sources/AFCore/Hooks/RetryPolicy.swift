import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Retries failed requests with exponential backoff, when the method is idempotent and the
/// failure is a retryable status code (after validation) or a retryable `URLError`.
open class RetryPolicy: @unchecked Sendable, RequestInterceptor {
    /// Attempts after the first: 2.
    public static let defaultRetryLimit: UInt = 2
    /// Backoff base: 2.
    public static let defaultExponentialBackoffBase: UInt = 2
    /// Backoff scale: 0.5 s, so the delays are 0.5 s, then 1 s.
    public static let defaultExponentialBackoffScale: Double = 0.5
    /// Methods safe to send twice.
    public static let defaultRetryableHTTPMethods: Set<HTTPMethod> = [.delete, .get, .head, .options, .put, .trace]
    /// Status codes worth another try: 408, 500, 502, 503, 504.
    public static let defaultRetryableHTTPStatusCodes: Set<Int> = [408, 500, 502, 503, 504]
    /// `URLError` codes a later attempt may not hit.
    ///
    /// Left out on purpose: `.cancelled` (the caller asked), URL and redirect errors (`.badURL`,
    /// `.unsupportedURL`, `.httpTooManyRedirects`, ...: the same request fails the same way),
    /// certificate rejections (`.serverCertificateUntrusted`, `.serverCertificateHasUnknownRoot`,
    /// `.clientCertificateRejected`, ...: a trust decision does not change by waiting), body and
    /// decoding errors, and the file-system codes.
    public static let defaultRetryableURLErrorCodes: Set<URLError.Code> = [
        .backgroundSessionInUseByAnotherProcess, .backgroundSessionWasDisconnected, .badServerResponse,
        .callIsActive, .cannotConnectToHost, .cannotFindHost, .cannotLoadFromNetwork, .dataNotAllowed,
        .dnsLookupFailed, .downloadDecodingFailedMidStream, .downloadDecodingFailedToComplete,
        .internationalRoamingOff, .networkConnectionLost, .notConnectedToInternet, .secureConnectionFailed,
        .serverCertificateHasBadDate, .serverCertificateNotYetValid, .timedOut,
    ]

    /// Retries at most this many times.
    public let retryLimit: UInt
    /// The delay before retry n is `exponentialBackoffScale × exponentialBackoffBase^n` seconds.
    public let exponentialBackoffBase: UInt
    /// The delay's scale, in seconds.
    public let exponentialBackoffScale: Double
    /// Only requests with these methods are retried.
    public let retryableHTTPMethods: Set<HTTPMethod>
    /// Responses with these status codes are retried.
    public let retryableHTTPStatusCodes: Set<Int>
    /// Failures with these `URLError` codes are retried.
    public let retryableURLErrorCodes: Set<URLError.Code>
    /// When set, `Retry-After` on the listed status codes decides the delay (beyond Alamofire).
    public let retryAfter: RetryAfterPolicy?

    /// Creates a policy. A backoff base below 2 is raised to 2.
    public init(retryLimit: UInt = RetryPolicy.defaultRetryLimit,
                exponentialBackoffBase: UInt = RetryPolicy.defaultExponentialBackoffBase,
                exponentialBackoffScale: Double = RetryPolicy.defaultExponentialBackoffScale,
                retryableHTTPMethods: Set<HTTPMethod> = RetryPolicy.defaultRetryableHTTPMethods,
                retryableHTTPStatusCodes: Set<Int> = RetryPolicy.defaultRetryableHTTPStatusCodes,
                retryableURLErrorCodes: Set<URLError.Code> = RetryPolicy.defaultRetryableURLErrorCodes,
                retryAfter: RetryAfterPolicy? = nil) {
        self.retryLimit = retryLimit
        self.exponentialBackoffBase = max(2, exponentialBackoffBase)
        self.exponentialBackoffScale = exponentialBackoffScale
        self.retryableHTTPMethods = retryableHTTPMethods
        self.retryableHTTPStatusCodes = retryableHTTPStatusCodes
        self.retryableURLErrorCodes = retryableURLErrorCodes
        self.retryAfter = retryAfter
    }

    open func retry(_ request: Request, for session: Session, dueTo error: any Error,
                    completion: @escaping @Sendable (RetryResult) -> Void) {
        guard request.retryCount < retryLimit else { return completion(.doNotRetry) }
        if let retryAfter, let response = request.response, retryAfter.statusCodes.contains(response.statusCode),
           isRetryableMethod(request) {
            if let delay = retryAfter.delay(for: response) {
                return completion(delay <= retryAfter.maximumDelay ? .retryWithDelay(delay) : .doNotRetry)
            }
            return completion(.retryWithDelay(backoff(for: request)))
        }
        completion(shouldRetry(request: request, dueTo: error) ? .retryWithDelay(backoff(for: request)) : .doNotRetry)
    }

    /// Whether `request`, failed with `error`, qualifies: its method, then its status code, then
    /// the `URLError` code (of the error itself or of the `AFError`'s underlying error).
    open func shouldRetry(request: Request, dueTo error: any Error) -> Bool {
        guard isRetryableMethod(request) else { return false }
        if let statusCode = request.response?.statusCode, retryableHTTPStatusCodes.contains(statusCode) {
            return true
        }
        let code = (error as? URLError)?.code ?? ((error as? AFError)?.underlyingError as? URLError)?.code
        return code.map(retryableURLErrorCodes.contains) ?? false
    }

    private func isRetryableMethod(_ request: Request) -> Bool {
        guard let method = request.request?.method else { return false }
        return retryableHTTPMethods.contains(method)
    }

    private func backoff(for request: Request) -> TimeInterval {
        pow(Double(exponentialBackoffBase), Double(request.retryCount)) * exponentialBackoffScale
    }
}

/// How `RetryPolicy` reads `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
public struct RetryAfterPolicy: Sendable {
    /// 429 Too Many Requests and 503 Service Unavailable.
    public static let defaultStatusCodes: Set<Int> = [429, 503]
    /// One minute.
    public static let defaultMaximumDelay: TimeInterval = 60
    /// Honour both status codes, waiting at most a minute.
    public static let `default` = RetryAfterPolicy()

    /// Responses whose `Retry-After` is honoured; they are retried even when not in the policy's
    /// retryable status codes.
    public var statusCodes: Set<Int>
    /// The longest wait accepted; a server asking for more gets no retry.
    public var maximumDelay: TimeInterval

    /// A policy honouring `Retry-After` on `statusCodes`, waiting at most `maximumDelay`.
    public init(statusCodes: Set<Int> = RetryAfterPolicy.defaultStatusCodes,
                maximumDelay: TimeInterval = RetryAfterPolicy.defaultMaximumDelay) {
        self.statusCodes = statusCodes
        self.maximumDelay = maximumDelay
    }

    /// The wait `response` asks for, or nil when it has no valid `Retry-After`. A date is measured
    /// from the response's own `Date` when it has one, so clock skew does not matter.
    func delay(for response: HTTPURLResponse, now: Date = Date()) -> TimeInterval? {
        guard let value = response.value(forHTTPHeaderField: "Retry-After")?.trimmingCharacters(in: .whitespaces),
              !value.isEmpty else { return nil }
        if value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return TimeInterval(value)
        }
        guard let date = HTTPDate.parse(value) else { return nil }
        let reference = response.value(forHTTPHeaderField: "Date").flatMap(HTTPDate.parse) ?? now
        return max(0, date.timeIntervalSince(reference))
    }
}

extension RequestInterceptor where Self == RetryPolicy {
    /// A `RetryPolicy` with the defaults.
    public static var retryPolicy: RetryPolicy { RetryPolicy() }

    /// A `RetryPolicy` with these settings.
    public static func retryPolicy(retryLimit: UInt = RetryPolicy.defaultRetryLimit,
                                   exponentialBackoffBase: UInt = RetryPolicy.defaultExponentialBackoffBase,
                                   exponentialBackoffScale: Double = RetryPolicy.defaultExponentialBackoffScale,
                                   retryableHTTPMethods: Set<HTTPMethod> = RetryPolicy.defaultRetryableHTTPMethods,
                                   retryableHTTPStatusCodes: Set<Int> = RetryPolicy.defaultRetryableHTTPStatusCodes,
                                   retryableURLErrorCodes: Set<URLError.Code> = RetryPolicy.defaultRetryableURLErrorCodes,
                                   retryAfter: RetryAfterPolicy? = nil) -> RetryPolicy {
        RetryPolicy(retryLimit: retryLimit, exponentialBackoffBase: exponentialBackoffBase,
                    exponentialBackoffScale: exponentialBackoffScale, retryableHTTPMethods: retryableHTTPMethods,
                    retryableHTTPStatusCodes: retryableHTTPStatusCodes, retryableURLErrorCodes: retryableURLErrorCodes,
                    retryAfter: retryAfter)
    }
}

/// Retries only requests whose connection was lost (`URLError.networkConnectionLost`).
open class ConnectionLostRetryPolicy: RetryPolicy, @unchecked Sendable {
    /// A policy retrying lost connections of `retryableHTTPMethods` requests, with `RetryPolicy`'s backoff.
    public init(retryLimit: UInt = RetryPolicy.defaultRetryLimit,
                exponentialBackoffBase: UInt = RetryPolicy.defaultExponentialBackoffBase,
                exponentialBackoffScale: Double = RetryPolicy.defaultExponentialBackoffScale,
                retryableHTTPMethods: Set<HTTPMethod> = RetryPolicy.defaultRetryableHTTPMethods) {
        super.init(retryLimit: retryLimit, exponentialBackoffBase: exponentialBackoffBase,
                   exponentialBackoffScale: exponentialBackoffScale, retryableHTTPMethods: retryableHTTPMethods,
                   retryableHTTPStatusCodes: [], retryableURLErrorCodes: [.networkConnectionLost])
    }
}

extension RequestInterceptor where Self == ConnectionLostRetryPolicy {
    /// A `ConnectionLostRetryPolicy` with the defaults.
    public static var connectionLostRetryPolicy: ConnectionLostRetryPolicy { ConnectionLostRetryPolicy() }

    /// A `ConnectionLostRetryPolicy` with these settings.
    public static func connectionLostRetryPolicy(retryLimit: UInt = RetryPolicy.defaultRetryLimit,
                                                 exponentialBackoffBase: UInt = RetryPolicy.defaultExponentialBackoffBase,
                                                 exponentialBackoffScale: Double = RetryPolicy.defaultExponentialBackoffScale,
                                                 retryableHTTPMethods: Set<HTTPMethod> = RetryPolicy.defaultRetryableHTTPMethods) -> ConnectionLostRetryPolicy {
        ConnectionLostRetryPolicy(retryLimit: retryLimit, exponentialBackoffBase: exponentialBackoffBase,
                                  exponentialBackoffScale: exponentialBackoffScale, retryableHTTPMethods: retryableHTTPMethods)
    }
}
