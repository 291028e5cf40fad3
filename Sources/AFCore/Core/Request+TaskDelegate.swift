import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// What a request's task asks of it: redirect and cache decisions (the request's handler, else
// the session's), engine events for the monitors, and the end of the attempt.
extension Request: SessionTaskDelegate {
    /// Whether a monitor of the session may want the engine's head and body events. Asked per
    /// exchange: a session with no monitor but the notification posters is not looked up.
    var observesTransferEvents: Bool {
        sessionIsObserved && session?.eventMonitor.observesTransferEvents == true
    }

    func task(_ task: SessionTask, didReceiveResponse response: HTTPURLResponse) {
        didReceiveResponseHead(response, task: task)
        decide(on: response, task: task)
        emitDataTaskEvent(task, .dataTaskDidReceiveResponse) { $0.urlSession($1, dataTask: $2, didReceive: response) }
        if let offset = task.mutableState.withLock({ $0.download?.resumeOffset }), offset > 0 {
            // Unknown (-1) when the server announces no length, or one no Int64 total can hold.
            let (sum, overflow) = offset.addingReportingOverflow(response.expectedContentLength)
            let expected = response.expectedContentLength < 0 || overflow ? -1 : sum
            emitSessionEvent(task, .downloadTaskDidResumeAtOffset) { monitor, session, task in
                guard let downloadTask = task as? URLSessionDownloadTask else { return }
                monitor.urlSession(session, downloadTask: downloadTask, didResumeAtOffset: offset, expectedTotalBytes: expected)
            }
        }
    }

    var mayWaitForConnectivity: Bool {
        mutableState.withLock { $0.retryStop == nil }
    }

    func taskIsWaitingForConnectivity(_ task: SessionTask) {
        emitSessionEvent(task, .taskIsWaitingForConnectivity) { $0.urlSession($1, taskIsWaitingForConnectivity: $2) }
    }

    func task(_ task: SessionTask, didUpdate progress: TransferProgress) {
        didUpdate(progress, task: task)
    }

    func task(_ task: SessionTask, didReceive data: Data) {
        if task.bodyStream != nil { didReceiveStreamedBody(data) }
        emitDataTaskEvent(task, .dataTaskDidReceiveData) { $0.urlSession($1, dataTask: $2, didReceive: data) }
    }

    func task(_ task: SessionTask, willRedirectTo request: URLRequest, response: HTTPURLResponse,
              completion: @escaping @Sendable (URLRequest?) -> Void) {
        emitSessionEvent(task, .taskWillPerformHTTPRedirection) {
            $0.urlSession($1, task: $2, willPerformHTTPRedirection: response, newRequest: request)
        }
        guard let handler = redirectHandler ?? session?.redirectHandler else { return completion(request) }
        handler.task(urlSessionTask(for: task), willBeRedirectedTo: request, for: response, completion: completion)
    }

    func task(_ task: SessionTask, willCacheResponse response: CachedURLResponse,
              completion: @escaping @Sendable (CachedURLResponse?) -> Void) {
        emitDataTaskEvent(task, .dataTaskWillCacheResponse) { $0.urlSession($1, dataTask: $2, willCacheResponse: response) }
        guard let handler = cachedResponseHandler ?? session?.cachedResponseHandler,
              let dataTask = urlSessionTask(for: task) as? URLSessionDataTask else { return completion(response) }
        handler.dataTask(dataTask, willCacheResponse: response, completion: completion)
    }

    func task(_ task: SessionTask, didCompleteWith result: SessionTask.Result) {
        didComplete(task: task, result: result)
    }

    /// Sends an engine event that only data tasks (data, upload and stream requests) report.
    func emitDataTaskEvent(_ task: SessionTask, _ kind: MonitoredEvent,
                           _ event: @escaping @Sendable (any EventMonitor, URLSession, URLSessionDataTask) -> Void) {
        emitSessionEvent(task, kind) { monitor, session, task in
            if let dataTask = task as? URLSessionDataTask { event(monitor, session, dataTask) }
        }
    }
}
