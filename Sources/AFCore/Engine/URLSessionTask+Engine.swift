import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The `URLSessionTask`s a request hands out (`task`, `tasks`, hooks, monitors), as Alamofire
// does. Each stands for one engine task: reads and controls go to it. They are made only when
// someone asks (a Foundation task costs a dispatch queue and a lock to make), once per attempt.
//
// The three classes below repeat the same overrides on purpose. Alamofire's API hands out
// `URLSessionDataTask`, `URLSessionUploadTask` and `URLSessionDownloadTask`, which are classes
// in one Foundation tree (upload is a subclass of data), so each kind must subclass its own
// Foundation class; Swift offers no way to share overrides across sibling subclasses (a
// protocol extension cannot override a class's members), hence one copy per class.

/// A task made for an engine task.
protocol EngineBackedTask: URLSessionTask {
    var engineTask: SessionTask { get }
}

/// What a `DataRequest` or `DataStreamRequest` attempt is.
final class EngineDataTask: URLSessionDataTask, EngineBackedTask, @unchecked Sendable {
    let engineTask: SessionTask
    init(_ task: SessionTask) { engineTask = task }

    override var taskIdentifier: Int { engineTask.taskIdentifier }
    override var originalRequest: URLRequest? { engineTask.originalRequest }
    override var currentRequest: URLRequest? { engineTask.currentRequest }
    override var response: URLResponse? { engineTask.response }
    override var state: URLSessionTask.State { engineTask.state }
    override var error: (any Error)? { engineTask.error }
    override var countOfBytesReceived: Int64 { engineTask.countOfBytesReceived }
    override var countOfBytesSent: Int64 { engineTask.countOfBytesSent }
    override var countOfBytesExpectedToReceive: Int64 { engineTask.countOfBytesExpectedToReceive }
    override var countOfBytesExpectedToSend: Int64 { engineTask.countOfBytesExpectedToSend }
    override func resume() { engineTask.resume() }
    override func suspend() { engineTask.suspend() }
    override func cancel() { engineTask.cancel() }
}

/// What an `UploadRequest` attempt is.
final class EngineUploadTask: URLSessionUploadTask, EngineBackedTask, @unchecked Sendable {
    let engineTask: SessionTask
    init(_ task: SessionTask) { engineTask = task }

    override var taskIdentifier: Int { engineTask.taskIdentifier }
    override var originalRequest: URLRequest? { engineTask.originalRequest }
    override var currentRequest: URLRequest? { engineTask.currentRequest }
    override var response: URLResponse? { engineTask.response }
    override var state: URLSessionTask.State { engineTask.state }
    override var error: (any Error)? { engineTask.error }
    override var countOfBytesReceived: Int64 { engineTask.countOfBytesReceived }
    override var countOfBytesSent: Int64 { engineTask.countOfBytesSent }
    override var countOfBytesExpectedToReceive: Int64 { engineTask.countOfBytesExpectedToReceive }
    override var countOfBytesExpectedToSend: Int64 { engineTask.countOfBytesExpectedToSend }
    override func resume() { engineTask.resume() }
    override func suspend() { engineTask.suspend() }
    override func cancel() { engineTask.cancel() }
}

/// What a `DownloadRequest` attempt is. `cancel(byProducingResumeData:)` hands over no data:
/// resume data belongs to the request (`DownloadRequest.cancel(byProducingResumeData:)`).
final class EngineDownloadTask: URLSessionDownloadTask, EngineBackedTask, @unchecked Sendable {
    let engineTask: SessionTask
    init(_ task: SessionTask) { engineTask = task }

    override var taskIdentifier: Int { engineTask.taskIdentifier }
    override var originalRequest: URLRequest? { engineTask.originalRequest }
    override var currentRequest: URLRequest? { engineTask.currentRequest }
    override var response: URLResponse? { engineTask.response }
    override var state: URLSessionTask.State { engineTask.state }
    override var error: (any Error)? { engineTask.error }
    override var countOfBytesReceived: Int64 { engineTask.countOfBytesReceived }
    override var countOfBytesSent: Int64 { engineTask.countOfBytesSent }
    override var countOfBytesExpectedToReceive: Int64 { engineTask.countOfBytesExpectedToReceive }
    override var countOfBytesExpectedToSend: Int64 { engineTask.countOfBytesExpectedToSend }
    override func resume() { engineTask.resume() }
    override func suspend() { engineTask.suspend() }
    override func cancel() { engineTask.cancel() }
    override func cancel(byProducingResumeData completionHandler: @escaping (Data?) -> Void) {
        engineTask.cancel()
        completionHandler(nil)
    }
}
