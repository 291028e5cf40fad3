import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Session {
    func download(_ downloadable: DownloadRequest.Downloadable, interceptor: (any RequestInterceptor)?,
                  shouldAutomaticallyResume: Bool?, to destination: DownloadRequest.Destination?) -> DownloadRequest {
        let request = DownloadRequest(downloadable: downloadable, underlyingQueue: rootQueue,
                                      serializationQueue: serializationQueue, eventMonitor: eventMonitor,
                                      interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume,
                                      delegate: self, destination: destination ?? DownloadRequest.defaultDestination)
        perform(request)
        return request
    }
}
