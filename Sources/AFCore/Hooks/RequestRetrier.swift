import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What to do with a request that failed.
public enum RetryResult: Sendable {
    /// Try again now.
    case retry
    /// Try again after the delay, in seconds.
    case retryWithDelay(TimeInterval)
    /// Let the request end with its error.
    case doNotRetry
    /// Let the request end, with this error next to the original one (`requestRetryFailed`).
    case doNotRetryWithError(any Error)

    /// Whether the request runs again (`retry` or `retryWithDelay`). An AF addition, for
    /// retriers that combine others' decisions.
    public var retryRequired: Bool {
        switch self {
        case .retry, .retryWithDelay: true
        case .doNotRetry, .doNotRetryWithError: false
        }
    }

    /// The delay of `retryWithDelay`, else nil. An AF addition.
    public var delay: TimeInterval? {
        if case let .retryWithDelay(delay) = self { delay } else { nil }
    }

    /// The error of `doNotRetryWithError`, else nil. An AF addition.
    public var error: (any Error)? {
        if case let .doNotRetryWithError(error) = self { error } else { nil }
    }
}

/// Decides whether a failed request runs again.
public protocol RequestRetrier: Sendable {
    /// Calls `completion` with the decision for `request`, which failed with `error`. The
    /// request waits until `completion` is called; only its first call counts.
    func retry(_ request: Request, for session: Session, dueTo error: any Error,
               completion: @escaping @Sendable (RetryResult) -> Void)
}

/// The closure form of `RequestRetrier.retry(_:for:dueTo:completion:)`.
public typealias RetryHandler = @Sendable (_ request: Request, _ session: Session, _ error: any Error,
                                           _ completion: @escaping @Sendable (RetryResult) -> Void) -> Void

/// A `RequestRetrier` made from a closure.
open class Retrier: @unchecked Sendable, RequestInterceptor {
    private let retryHandler: RetryHandler

    /// Creates a retrier that runs `retryHandler`.
    public init(_ retryHandler: @escaping RetryHandler) {
        self.retryHandler = retryHandler
    }

    open func adapt(_ urlRequest: URLRequest, for session: Session,
                    completion: @escaping @Sendable (_ result: Result<URLRequest, any Error>) -> Void) {
        completion(.success(urlRequest))
    }

    open func retry(_ request: Request, for session: Session, dueTo error: any Error,
                    completion: @escaping @Sendable (RetryResult) -> Void) {
        retryHandler(request, session, error, completion)
    }
}

extension RequestRetrier where Self == Retrier {
    /// A retrier that runs `closure`.
    public static func retrier(using closure: @escaping RetryHandler) -> Retrier {
        Retrier(closure)
    }
}
