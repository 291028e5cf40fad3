import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// A request's events as async sequences, as Alamofire has them. Each takes the place of the
// matching handler (`uploadProgress(queue:closure:)` and the others hold one each, the last set
// wins) and ends when the request finishes, after its response handlers ran.
extension Request {
    /// The request body's progress.
    public func uploadProgress(bufferingPolicy: StreamOf<Progress>.BufferingPolicy = .unbounded) -> StreamOf<Progress> {
        events(bufferingPolicy: bufferingPolicy) { feed in
            uploadProgress(queue: underlyingQueue) { feed.yield($0) }
        }
    }

    /// The response body's progress.
    public func downloadProgress(bufferingPolicy: StreamOf<Progress>.BufferingPolicy = .unbounded) -> StreamOf<Progress> {
        events(bufferingPolicy: bufferingPolicy) { feed in
            downloadProgress(queue: underlyingQueue) { feed.yield($0) }
        }
    }

    /// Every `URLRequest` made, one per attempt (the latest one first, if there is one).
    public func urlRequests(bufferingPolicy: StreamOf<URLRequest>.BufferingPolicy = .unbounded) -> StreamOf<URLRequest> {
        events(bufferingPolicy: bufferingPolicy) { feed in
            onURLRequestCreation(on: underlyingQueue) { feed.yield($0) }
        }
    }

    /// Every task made, one per attempt (the latest one first, if there is one).
    public func urlSessionTasks(bufferingPolicy: StreamOf<URLSessionTask>.BufferingPolicy = .unbounded) -> StreamOf<URLSessionTask> {
        events(bufferingPolicy: bufferingPolicy) { feed in
            onURLSessionTaskCreation(on: underlyingQueue) { feed.yield($0) }
        }
    }

    /// The cURL command of each attempt.
    public func cURLDescriptions(bufferingPolicy: StreamOf<String>.BufferingPolicy = .unbounded) -> StreamOf<String> {
        events(bufferingPolicy: bufferingPolicy) { feed in
            cURLDescription(on: underlyingQueue) { feed.yield($0) }
        }
    }

    /// A sequence fed by `start` (whose handler runs on `underlyingQueue`), finished when the
    /// request finishes: on the same queue, after what the handler was already given.
    func events<Element>(bufferingPolicy: StreamOf<Element>.BufferingPolicy,
                         start: (StreamOf<Element>.Feed) -> Void) -> StreamOf<Element> {
        StreamOf(bufferingPolicy: bufferingPolicy) { feed in
            start(feed)
            onFinish { self.underlyingQueue.async { feed.finish() } }
        }
    }
}

extension DataRequest {
    /// Each final response head, as it arrives.
    public func httpResponses(bufferingPolicy: StreamOf<HTTPURLResponse>.BufferingPolicy = .unbounded) -> StreamOf<HTTPURLResponse> {
        events(bufferingPolicy: bufferingPolicy) { feed in
            onHTTPResponse(on: underlyingQueue) { feed.yield($0) }
        }
    }
}

extension DataStreamRequest {
    /// Each final response head, as it arrives.
    public func httpResponses(bufferingPolicy: StreamOf<HTTPURLResponse>.BufferingPolicy = .unbounded) -> StreamOf<HTTPURLResponse> {
        events(bufferingPolicy: bufferingPolicy) { feed in
            onHTTPResponse(on: underlyingQueue) { feed.yield($0) }
        }
    }
}
