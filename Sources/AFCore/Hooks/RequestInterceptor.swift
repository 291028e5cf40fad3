import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Both an adapter and a retrier; each side defaults to doing nothing.
public protocol RequestInterceptor: RequestAdapter, RequestRetrier {}

extension RequestInterceptor {
    public func adapt(_ urlRequest: URLRequest, for session: Session,
                      completion: @escaping @Sendable (_ result: Result<URLRequest, any Error>) -> Void) {
        completion(.success(urlRequest))
    }

    public func retry(_ request: Request, for session: Session, dueTo error: any Error,
                      completion: @escaping @Sendable (RetryResult) -> Void) {
        completion(.doNotRetry)
    }
}

/// Adapters and retriers combined: adapters run in order, each on the previous one's output, and
/// the first failure stops the chain; retriers are asked in order until one wants a retry or
/// gives an error.
open class Interceptor: @unchecked Sendable, RequestInterceptor {
    /// The adapters, in the order they run.
    public let adapters: [any RequestAdapter]
    /// The retriers, in the order they are asked.
    public let retriers: [any RequestRetrier]

    /// An interceptor from an adapting closure and a retrying closure.
    public init(adaptHandler: @escaping AdaptHandler, retryHandler: @escaping RetryHandler) {
        adapters = [Adapter(adaptHandler)]
        retriers = [Retrier(retryHandler)]
    }

    /// An interceptor from one adapter and one retrier.
    public init(adapter: any RequestAdapter, retrier: any RequestRetrier) {
        adapters = [adapter]
        retriers = [retrier]
    }

    /// An interceptor from lists; each of `interceptors` joins both lists, after the others.
    public init(adapters: [any RequestAdapter] = [], retriers: [any RequestRetrier] = [],
                interceptors: [any RequestInterceptor] = []) {
        self.adapters = adapters + interceptors.map { $0 as any RequestAdapter }
        self.retriers = retriers + interceptors.map { $0 as any RequestRetrier }
    }

    open func adapt(_ urlRequest: URLRequest, for session: Session,
                    completion: @escaping @Sendable (_ result: Result<URLRequest, any Error>) -> Void) {
        adapt(urlRequest, remaining: adapters[...], completion: completion) { adapter, request, next in
            adapter.adapt(request, for: session, completion: next)
        }
    }

    open func adapt(_ urlRequest: URLRequest, using state: RequestAdapterState,
                    completion: @escaping @Sendable (_ result: Result<URLRequest, any Error>) -> Void) {
        adapt(urlRequest, remaining: adapters[...], completion: completion) { adapter, request, next in
            adapter.adapt(request, using: state, completion: next)
        }
    }

    private func adapt(_ urlRequest: URLRequest, remaining: ArraySlice<any RequestAdapter>,
                       completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void,
                       step: @escaping @Sendable (any RequestAdapter, URLRequest,
                                                  @escaping @Sendable (Result<URLRequest, any Error>) -> Void) -> Void) {
        guard let adapter = remaining.first else { return completion(.success(urlRequest)) }
        let rest = remaining.dropFirst()
        step(adapter, urlRequest) { result in
            switch result {
            case let .success(adapted): self.adapt(adapted, remaining: rest, completion: completion, step: step)
            case .failure: completion(result)
            }
        }
    }

    open func retry(_ request: Request, for session: Session, dueTo error: any Error,
                    completion: @escaping @Sendable (RetryResult) -> Void) {
        retry(request, for: session, dueTo: error, remaining: retriers[...], completion: completion)
    }

    private func retry(_ request: Request, for session: Session, dueTo error: any Error,
                       remaining: ArraySlice<any RequestRetrier>,
                       completion: @escaping @Sendable (RetryResult) -> Void) {
        guard let retrier = remaining.first else { return completion(.doNotRetry) }
        let rest = remaining.dropFirst()
        retrier.retry(request, for: session, dueTo: error) { result in
            if case .doNotRetry = result {
                self.retry(request, for: session, dueTo: error, remaining: rest, completion: completion)
            } else {
                completion(result)
            }
        }
    }
}

extension RequestInterceptor where Self == Interceptor {
    /// An interceptor from an adapting closure and a retrying closure.
    public static func interceptor(adapter: @escaping AdaptHandler, retrier: @escaping RetryHandler) -> Interceptor {
        Interceptor(adaptHandler: adapter, retryHandler: retrier)
    }

    /// An interceptor from one adapter and one retrier.
    public static func interceptor(adapter: any RequestAdapter, retrier: any RequestRetrier) -> Interceptor {
        Interceptor(adapter: adapter, retrier: retrier)
    }

    /// An interceptor from lists of adapters, retriers and interceptors.
    public static func interceptor(adapters: [any RequestAdapter] = [], retriers: [any RequestRetrier] = [],
                                   interceptors: [any RequestInterceptor] = []) -> Interceptor {
        Interceptor(adapters: adapters, retriers: retriers, interceptors: interceptors)
    }
}
