import AFCore
import Foundation
import OpenCombine

/// What the response publishers (`DataResponsePublisher`, `DownloadResponsePublisher`) share:
/// a request and how to add its one response handler. Subscribing hands out the subscription
/// that adds the handler on first demand and publishes the response, then finishes.
struct ResponseSource<Output: Sendable>: Sendable {
    let request: Request
    let addHandler: @Sendable (@escaping @Sendable (Output) -> Void) -> Void

    func subscribe<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Never {
        let addHandler = addHandler
        subscriber.receive(subscription: RequestSubscription(request: request, downstream: subscriber) { deliver in
            addHandler { deliver($0, true) }
        })
    }
}

extension Publisher where Failure == Never {
    /// The result of each response (what the publishers' `result()` returns).
    func results<Value>(_ result: KeyPath<Output, Result<Value, AFError>>) -> AnyPublisher<Result<Value, AFError>, Never> {
        map { $0[keyPath: result] }.eraseToAnyPublisher()
    }

    /// The value of each response, or its error as the failure (the publishers' `value()`).
    func values<Value>(_ result: KeyPath<Output, Result<Value, AFError>>) -> AnyPublisher<Value, AFError> {
        setFailureType(to: AFError.self).flatMap { $0[keyPath: result].publisher }.eraseToAnyPublisher()
    }
}
