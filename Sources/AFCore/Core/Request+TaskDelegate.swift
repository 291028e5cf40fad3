import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// What a request's task asks of it: redirect and cache decisions (the request's handler, else
// the session's), engine events for the monitors, and the end of the attempt.
extension Request: SessionTaskDelegate {
    var observesTransferEvents: Bool {
        session?.eventMonitor.observesTransferEvents ?? false
    }

    func task(_ task: SessionTask, didReceiveResponse response: HTTPURLResponse) {
        didReceiveResponseHead(response, task: task)
        emitSessionEvent { $0.session($1, task: task, didReceive: response) }
    }

    func task(_ task: SessionTask, didUpdate progress: TransferProgress) {
        didUpdate(progress, task: task)
    }

    func task(_ task: SessionTask, didReceive data: Data) {
        if task.bodyStream != nil { didReceiveStreamedBody(data) }
        emitSessionEvent { $0.session($1, task: task, didReceive: data) }
    }

    func task(_ task: SessionTask, willRedirectTo request: URLRequest, response: HTTPURLResponse,
              completion: @escaping @Sendable (URLRequest?) -> Void) {
        emitSessionEvent { $0.session($1, task: task, willPerformHTTPRedirection: response, newRequest: request) }
        guard let handler = redirectHandler ?? session?.redirectHandler else { return completion(request) }
        handler.task(task, willBeRedirectedTo: request, for: response, completion: completion)
    }

    func task(_ task: SessionTask, willCacheResponse response: CachedURLResponse,
              completion: @escaping @Sendable (CachedURLResponse?) -> Void) {
        emitSessionEvent { $0.session($1, task: task, willCacheResponse: response) }
        guard let handler = cachedResponseHandler ?? session?.cachedResponseHandler else { return completion(response) }
        handler.dataTask(task, willCacheResponse: response, completion: completion)
    }

    func task(_ task: SessionTask, didCompleteWith result: SessionTask.Result) {
        didComplete(task: task, result: result)
    }
}
