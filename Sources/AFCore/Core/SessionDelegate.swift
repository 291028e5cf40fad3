import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Alamofire's `SessionDelegate`, kept for source compatibility: AF's engine, not a URLSession
/// delegate, runs the requests, and its events reach `EventMonitor`s directly. Its `FileManager`
/// moves downloaded files to their destination. The URLSession delegate methods below are never
/// called by AF; they exist so that subclasses written for Alamofire compile, and they answer as
/// a plain delegate would if the object is given to a `URLSession`.
open class SessionDelegate: NSObject, @unchecked Sendable {
    let fileManager: FileManager

    /// A delegate whose `fileManager` moves downloaded files.
    public init(fileManager: FileManager = .default) {
        self.fileManager = fileManager
    }

    /// Does nothing.
    open func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {}

    /// Answers with default handling.
    open func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                         completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        completionHandler(.performDefaultHandling, nil)
    }

    /// Does nothing.
    open func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
                         totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {}

    /// Answers with no stream.
    open func urlSession(_ session: URLSession, task: URLSessionTask,
                         needNewBodyStream completionHandler: @escaping (InputStream?) -> Void) {
        completionHandler(nil)
    }

    /// Follows the redirect.
    open func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                         newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(request)
    }

    /// Does nothing.
    open func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {}

    /// Does nothing.
    open func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {}

    /// Does nothing.
    open func urlSession(_ session: URLSession, taskIsWaitingForConnectivity task: URLSessionTask) {}

    /// Allows the response.
    open func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                         completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        completionHandler(.allow)
    }

    /// Does nothing.
    open func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {}

    /// Caches the response as proposed.
    open func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, willCacheResponse proposedResponse: CachedURLResponse,
                         completionHandler: @escaping (CachedURLResponse?) -> Void) {
        completionHandler(proposedResponse)
    }

    /// Does nothing.
    open func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didResumeAtOffset fileOffset: Int64,
                         expectedTotalBytes: Int64) {}

    /// Does nothing.
    open func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
                         totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {}

    /// Does nothing.
    open func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {}
}

extension SessionDelegate: URLSessionDelegate, URLSessionTaskDelegate, URLSessionDataDelegate, URLSessionDownloadDelegate {}
