import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What an adapter knows about the request it adapts.
public struct RequestAdapterState: Sendable {
    /// The `id` of the `Request` being adapted.
    public let requestID: UUID
    /// The session that runs the request.
    public let session: Session
}

/// Changes a `URLRequest` before each attempt is sent (adds a token, a header, a signature).
public protocol RequestAdapter: Sendable {
    /// Calls `completion` with the adapted request, or the error that stops the request. The
    /// request waits until `completion` is called; only its first call counts.
    func adapt(_ urlRequest: URLRequest, for session: Session,
               completion: @escaping @Sendable (_ result: Result<URLRequest, any Error>) -> Void)

    /// Like `adapt(_:for:completion:)`, with the request's identity.
    func adapt(_ urlRequest: URLRequest, using state: RequestAdapterState,
               completion: @escaping @Sendable (_ result: Result<URLRequest, any Error>) -> Void)
}

extension RequestAdapter {
    public func adapt(_ urlRequest: URLRequest, using state: RequestAdapterState,
                      completion: @escaping @Sendable (_ result: Result<URLRequest, any Error>) -> Void) {
        adapt(urlRequest, for: state.session, completion: completion)
    }
}

/// The closure form of `RequestAdapter.adapt(_:for:completion:)`.
public typealias AdaptHandler = @Sendable (_ request: URLRequest, _ session: Session,
                                           _ completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void) -> Void

/// A `RequestAdapter` made from a closure.
open class Adapter: @unchecked Sendable, RequestInterceptor {
    private let adaptHandler: AdaptHandler

    /// Creates an adapter that runs `adaptHandler`.
    public init(_ adaptHandler: @escaping AdaptHandler) {
        self.adaptHandler = adaptHandler
    }

    open func adapt(_ urlRequest: URLRequest, for session: Session,
                    completion: @escaping @Sendable (_ result: Result<URLRequest, any Error>) -> Void) {
        adaptHandler(urlRequest, session, completion)
    }

    open func adapt(_ urlRequest: URLRequest, using state: RequestAdapterState,
                    completion: @escaping @Sendable (_ result: Result<URLRequest, any Error>) -> Void) {
        adaptHandler(urlRequest, state.session, completion)
    }
}

extension RequestAdapter where Self == Adapter {
    /// An adapter that runs `closure`.
    public static func adapter(using closure: @escaping AdaptHandler) -> Adapter {
        Adapter(closure)
    }
}
