import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a `Request` reaches back into the `Session` that made it.
public protocol RequestDelegate: AnyObject, Sendable {
    /// The configuration of the session's tasks.
    var sessionConfiguration: URLSessionConfiguration { get }
    /// Whether requests start when their first response handler is added.
    var startImmediately: Bool { get }
    /// The request was resumed for the first time: build its `URLRequest` and task.
    func readyToPerform(request: Request)
    /// The request finished; the session forgets it.
    func cleanup(after request: Request)
    /// Asks the retriers what to do with `request`, which failed with `error`.
    func retryResult(for request: Request, dueTo error: AFError, completion: @escaping @Sendable (RetryResult) -> Void)
    /// Runs `request` again after `timeDelay` seconds (now when nil).
    func retryRequest(_ request: Request, withDelay timeDelay: TimeInterval?)
}
