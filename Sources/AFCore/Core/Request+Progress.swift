import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Request {
    /// Called with the request's upload or download progress.
    public typealias ProgressHandler = @Sendable (Progress) -> Void

    /// The closure `uploadProgress(queue:closure:)` set, and its queue.
    public var uploadProgressHandler: (handler: ProgressHandler, queue: DispatchQueue)? {
        mutableState.withLock { $0.uploadProgressHandler }.map { ($0.handler, $0.queue) }
    }

    /// The closure `downloadProgress(queue:closure:)` set, and its queue.
    public var downloadProgressHandler: (handler: ProgressHandler, queue: DispatchQueue)? {
        mutableState.withLock { $0.downloadProgressHandler }.map { ($0.handler, $0.queue) }
    }

    /// Calls `closure` on `queue` as the request body goes out (at most every 10 ms per
    /// exchange, besides its last counts, which reach it before the response's handler); the
    /// last closure set is used.
    @discardableResult
    public func uploadProgress(queue: DispatchQueue = .main, closure: @escaping ProgressHandler) -> Self {
        mutableState.withLock { $0.uploadProgressHandler = (queue, closure) }
        return self
    }

    /// Calls `closure` on `queue` as the response body arrives (at most every 10 ms per
    /// exchange, besides its last counts, which reach it before the response's handler); the
    /// last closure set is used.
    @discardableResult
    public func downloadProgress(queue: DispatchQueue = .main, closure: @escaping ProgressHandler) -> Self {
        mutableState.withLock { $0.downloadProgressHandler = (queue, closure) }
        return self
    }

    /// Whether byte counts matter to anyone: a progress handler, an upload or download, or a monitor.
    var observesProgress: Bool {
        let hasHandler = mutableState.withLock { $0.uploadProgressHandler != nil || $0.downloadProgressHandler != nil }
        return hasHandler || keepsProgressCurrent || observesTransferEvents
    }

    /// New byte counts for the current exchange (engine thread): update the progress objects on
    /// `underlyingQueue`, then tell the handlers and monitors.
    func didUpdate(_ progress: TransferProgress, task: SessionTask) {
        underlyingQueue.async {
            let (previous, upload, download) = self.mutableState.withLock { state in
                defer { state.lastProgress = progress }
                return (state.lastProgress, state.uploadProgressHandler, state.downloadProgressHandler)
            }
            if progress.bytesSent != previous.bytesSent || progress.bytesExpectedToSend != previous.bytesExpectedToSend {
                Self.set(self.uploadProgress, completed: progress.bytesSent, expected: progress.bytesExpectedToSend)
                if let upload { self.call(upload.handler, on: upload.queue, with: self.uploadProgress) }
                let sent = progress.bytesSent - previous.bytesSent
                self.emitSessionEvent(task, .taskDidSendBodyData) {
                    $0.urlSession($1, task: $2, didSendBodyData: sent, totalBytesSent: progress.bytesSent,
                                  totalBytesExpectedToSend: progress.bytesExpectedToSend)
                }
            }
            if progress.bytesReceived != previous.bytesReceived {
                Self.set(self.downloadProgress, completed: progress.bytesReceived, expected: progress.bytesExpectedToReceive)
                if let download { self.call(download.handler, on: download.queue, with: self.downloadProgress) }
                let written = progress.bytesReceived - previous.bytesReceived
                self.emitSessionEvent(task, .downloadTaskDidWriteData) { monitor, session, task in
                    guard let downloadTask = task as? URLSessionDownloadTask else { return }
                    monitor.urlSession(session, downloadTask: downloadTask, didWriteData: written,
                                       totalBytesWritten: progress.bytesReceived,
                                       totalBytesExpectedToWrite: progress.bytesExpectedToReceive)
                }
            }
        }
    }

    /// Calls `handler` on `queue`, at once when that is the queue this runs on (the request's
    /// `underlyingQueue`): the update then reaches it before anything queued after it, such as
    /// the request's completion.
    private func call(_ handler: @escaping ProgressHandler, on queue: DispatchQueue, with progress: Progress) {
        if queue === underlyingQueue {
            handler(progress)
        } else {
            callEventHandler(on: queue) { handler(progress) }
        }
    }

    /// Sets counts without ever letting the total fall below the completed count or to zero:
    /// Foundation's Progress traps on such fractions.
    private static func set(_ progress: Progress, completed: Int64, expected: Int64) {
        let total = max(expected, completed, 1)
        if total < progress.totalUnitCount { progress.completedUnitCount = 0 }
        progress.totalUnitCount = total
        progress.completedUnitCount = min(completed, total)
    }
}
