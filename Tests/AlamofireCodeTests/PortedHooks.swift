// Code written for Alamofire, as its documentation writes it, with `import Alamofire` swapped
// for `import AFCore`. It must compile against AF's public API unchanged; the tests beside it
// check that AF calls it.
import AFCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Drops the Authorization header when a redirect leaves the original host, and marks what it
/// changed so a test can see that it ran.
struct StripAuthRedirect: RedirectHandler {
    func task(_ task: URLSessionTask, willBeRedirectedTo request: URLRequest, for response: HTTPURLResponse,
              completion: @escaping (URLRequest?) -> Void) {
        var redirected = request
        if task.originalRequest?.url?.host != request.url?.host {
            redirected.headers.remove(name: "Authorization")
        }
        redirected.headers.add(name: "X-Redirected-By", value: "StripAuthRedirect")
        completion(redirected)
    }
}

/// Stores only successful responses.
struct CacheSuccessesOnly: CachedResponseHandler {
    func dataTask(_ task: URLSessionDataTask, willCacheResponse response: CachedURLResponse,
                  completion: @escaping (CachedURLResponse?) -> Void) {
        let statusCode = (response.response as? HTTPURLResponse)?.statusCode ?? 0
        completion((200..<300).contains(statusCode) ? response : nil)
    }
}

/// A monitor with Alamofire's method signatures, recording what it is told.
final class TaskEventLogger: EventMonitor, @unchecked Sendable {
    let queue = DispatchQueue(label: "ported.task-event-logger")
    private let lock = NSLock()
    private var lines: [String] = []
    private(set) var createdTask: URLSessionTask?
    private let onFinish: @Sendable () -> Void

    init(onFinish: @escaping @Sendable () -> Void) {
        self.onFinish = onFinish
    }

    private func log(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }

    /// What was logged, once every event already sent has been delivered.
    var logged: [String] {
        queue.sync {}
        lock.lock()
        defer { lock.unlock() }
        return lines
    }

    func request(_ request: Request, didCreateTask task: URLSessionTask) {
        lock.lock()
        createdTask = task
        lock.unlock()
        log("didCreateTask")
    }

    func request(_ request: Request, didResumeTask task: URLSessionTask) { log("didResumeTask") }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse) {
        log("didReceiveResponse \((response as? HTTPURLResponse)?.statusCode ?? 0)")
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        log("didReceiveData")
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        log("didCompleteWithError \(error == nil ? "nil" : "error")")
    }

    func request(_ request: Request, didCompleteTask task: URLSessionTask, with error: AFError?) {
        log("didCompleteTask \(task.state == .completed)")
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        log("didFinishDownloadingTo")
    }

    func requestDidFinish(_ request: Request) {
        log("requestDidFinish")
        onFinish()
    }
}

/// A subclass of the closure monitor, as `open` allows.
final class CountingMonitor: ClosureEventMonitor, @unchecked Sendable {
    private let lock = NSLock()
    private var finished = 0

    var finishedCount: Int {
        queue.sync {}
        lock.lock()
        defer { lock.unlock() }
        return finished
    }

    override func requestDidFinish(_ request: Request) {
        lock.lock()
        finished += 1
        lock.unlock()
        super.requestDidFinish(request)
    }
}

/// Adds a token and retries a 401 once, as Alamofire's interceptor guide does.
final class TokenInterceptor: RequestInterceptor, @unchecked Sendable {
    func adapt(_ urlRequest: URLRequest, for session: Session, completion: @escaping @Sendable (Result<URLRequest, Error>) -> Void) {
        var urlRequest = urlRequest
        urlRequest.headers.add(.authorization(bearerToken: "ported-token"))
        completion(.success(urlRequest))
    }

    func retry(_ request: Request, for session: Session, dueTo error: Error,
               completion: @escaping @Sendable (RetryResult) -> Void) {
        guard request.retryCount == 0, request.response?.statusCode == 401 else {
            return completion(.doNotRetry)
        }
        completion(.retry)
    }
}

/// Reads a body of comma-separated words.
struct CommaSeparatedSerializer: ResponseSerializer {
    func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: Error?) throws -> [String] {
        guard error == nil else { throw error! }
        guard let data, let text = String(data: data, encoding: .utf8) else { return [] }
        return text.split(separator: ",").map(String.init)
    }
}

/// A SessionDelegate subclass overriding URLSession delegate methods, as Alamofire code may have
/// (AF's engine never calls them; the subclass must compile).
final class AuditingSessionDelegate: SessionDelegate, @unchecked Sendable {
    override func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        super.urlSession(session, task: task, didCompleteWithError: error)
    }

    override func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                             newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}

/// A Session subclass that overrides a request method, as Alamofire's `open` methods allow.
final class CountingSession: Session, @unchecked Sendable {
    private let lock = NSLock()
    private var made = 0

    var requestsMade: Int {
        lock.lock()
        defer { lock.unlock() }
        return made
    }

    override func request(_ convertible: any URLRequestConvertible, interceptor: (any RequestInterceptor)? = nil,
                          shouldAutomaticallyResume: Bool? = nil) -> DataRequest {
        lock.lock()
        made += 1
        lock.unlock()
        return super.request(convertible, interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume)
    }
}
