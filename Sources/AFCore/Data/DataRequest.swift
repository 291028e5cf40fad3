import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request whose whole body is gathered in memory.
public class DataRequest: Request, @unchecked Sendable {
    /// What the request was made from.
    public let convertible: any URLRequestConvertible

    /// The body received, once the request completed.
    public var data: Data? { mutableState.withLock { $0.data } }

    init(id: UUID = .fastRandom(), convertible: any URLRequestConvertible, underlyingQueue: DispatchQueue,
         serializationQueue: DispatchQueue, eventMonitor: CompositeEventMonitor?, interceptor: (any RequestInterceptor)?,
         shouldAutomaticallyResume: Bool?, delegate: any RequestDelegate) {
        self.convertible = convertible
        super.init(id: id, underlyingQueue: underlyingQueue, serializationQueue: serializationQueue,
                   eventMonitor: eventMonitor, interceptor: interceptor,
                   shouldAutomaticallyResume: shouldAutomaticallyResume, delegate: delegate)
    }

    override func makeURLRequest() throws -> URLRequest {
        try convertible.asURLRequest()
    }

    /// An empty body is no data, as with Alamofire (URLSession never reported any bytes).
    override func store(_ result: SessionTask.Result) {
        mutableState.withLock { $0.data = result.data.isEmpty ? nil : result.data }
    }

    /// A check of the response run when the task completes.
    public typealias Validation = @Sendable (URLRequest?, HTTPURLResponse, Data?) -> ValidationResult

    /// Adds a validation; a failure becomes the request's error.
    @discardableResult
    public func validate(_ validation: @escaping Validation) -> Self {
        validateReceived { request, received, data in validation(request, received.httpResponse, data) }
    }

    /// A validation of the response as received; AF's own read its head, never building the
    /// `HTTPURLResponse` (monitors that take it build it on their queue, if there are any).
    typealias ReceivedValidation = @Sendable (URLRequest?, ReceivedResponse, Data?) -> ValidationResult

    /// Adds `validation`, then `next` if given, as one validator: each check is reported to the
    /// monitors, and `next` runs only if `validation` passed (as a separate validator would, each
    /// skipped once the request failed).
    @discardableResult
    func validateReceived(_ validation: @escaping ReceivedValidation, then next: ReceivedValidation? = nil) -> Self {
        let validator: @Sendable () -> Void = { [unowned self] in
            let (request, response, failed) = mutableState.withLock { ($0.requests.last, $0.response, $0.$error) }
            guard !failed, let received = response else { return }
            let data = data
            /// Runs one check; true when it passed.
            func check(_ validation: ReceivedValidation) -> Bool {
                let result = validation(request, received, data)
                if case let .failure(failure) = result {
                    error = failure.asAFError(or: .responseValidationFailed(reason: .customValidationFailed(error: failure)))
                }
                // A closure monitor without the closure for it never makes the HTTPURLResponse.
                emit(.requestDidValidateRequestResponseDataWithResult) {
                    $0.request(self, didValidateRequest: request, response: received.httpResponse, data: data, withResult: result)
                }
                if case .failure = result { return false }
                return true
            }
            // The next check looks again for an error first: a cancel may have come meanwhile.
            guard check(validation), let next, !mutableState.withLock({ $0.$error }) else { return }
            _ = check(next)
        }
        mutableState.withLock { $0.validators.append(validator) }
        return self
    }
}

extension Request {
    /// The outcome of a validation.
    public typealias ValidationResult = Result<Void, any Error & Sendable>
}
