import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Several monitors behind one: each event is sent, asynchronously, to every monitor on that
/// monitor's own queue, in the order the events happened (see `MonitorMailbox`).
public final class CompositeEventMonitor: EventMonitor {
    public let queue: DispatchQueue
    /// The monitors, in the order they get each event.
    public let monitors: [any EventMonitor]

    /// The monitors that may implement any event, each behind its mailbox.
    private let observers: [MonitorMailbox]
    /// The notification posters, which implement eight request events only: the other events
    /// are not sent to them at all, so a session with the default monitors pays for no more.
    private let notifiers: [AlamofireNotifications]
    /// Notified events not posted yet, posted in runs on `queue`.
    private let pendingNotifications: RunDelivery<PendingNotification>

    init(queue: DispatchQueue, monitors: [any EventMonitor]) {
        self.queue = queue
        self.monitors = monitors.flatMap { ($0 as? CompositeEventMonitor)?.monitors ?? [$0] }
        observers = self.monitors.filter { !($0 is AlamofireNotifications) }.map(MonitorMailbox.init(for:))
        let notifiers = self.monitors.compactMap { $0 as? AlamofireNotifications }
        self.notifiers = notifiers
        pendingNotifications = RunDelivery(on: queue) { Self.post($0, to: notifiers) }
    }

    /// Whether any monitor gets events other than notifications.
    var hasObservers: Bool { !observers.isEmpty }
    /// Whether request events are also posted as notifications.
    var hasNotifiers: Bool { !notifiers.isEmpty }

    /// Whether any monitor may want the events that come from the engine as the exchange goes
    /// on (the response, each chunk of data, a resumed download's start, byte counts), which
    /// cost a response and a copy per chunk on the engine thread.
    var observesTransferEvents: Bool {
        observers.contains { mailbox in
            if let closures = MonitoredEvent.closures(of: mailbox.monitor) {
                return Self.transferEvents.contains(where: closures.hasClosure(for:))
            }
            return true
        }
    }

    /// The events an exchange reports only if some monitor may hear them as it starts.
    private static let transferEvents: [MonitoredEvent] = [
        .dataTaskDidReceiveData, .dataTaskDidReceiveResponse, .downloadTaskDidResumeAtOffset, .taskDidSendBodyData,
        .downloadTaskDidWriteData,
    ]

    /// Sends an event that notification posters ignore to every other monitor.
    func performEvent(_ event: @escaping MonitorMailbox.Deliver) {
        for mailbox in observers { mailbox.send(event) }
    }

    /// Whether some monitor may take an event of `kind` (see `MonitoredEvent`): asked before
    /// the event is made, so that one no monitor can hear costs nothing more.
    func mayTake(_ kind: MonitoredEvent) -> Bool {
        observers.contains { $0.mayTake(kind) }
    }

    /// Offers `event`, of `kind`, to each monitor (notification posters ignore it): each
    /// monitor that may hear it takes it (see `MonitoredEvent`).
    func offerEvent(_ kind: MonitoredEvent, _ event: @escaping MonitorMailbox.Deliver) {
        for mailbox in observers { mailbox.offer(event, as: kind) }
    }

    /// Sends one of the eight events that are also posted as notifications: `event` to the
    /// monitors, `name` to the notification posters, which need nothing but the request (so no
    /// task object is made for them). They post on this monitor's queue, which runs behind the
    /// session's `rootQueue`, where these events are emitted: posting then needs no other thread
    /// to wake. Notifications wait in order in `pendingNotifications`, and a pass of the queue
    /// posts all that arrived by then. With `now`, posted at once (see `postNotification`).
    func performNotifiedEvent(_ name: Notification.Name, of request: Request, now: Bool = false,
                              _ event: @escaping MonitorMailbox.Deliver) {
        performEvent(event)
        postNotification(name, of: request, now: now)
    }

    /// Queues `name` about `request` for the notification posters (see `performNotifiedEvent`);
    /// with `now`, posts it at once: the request's events are emitted on a queue of its own,
    /// not behind `rootQueue`, and posted there in their order.
    func postNotification(_ name: Notification.Name, of request: Request, now: Bool = false) {
        guard !notifiers.isEmpty else { return }
        if now { return RequestUserInfo.with(request) { Self.post(name, userInfo: $0, to: notifiers) } }
        pendingNotifications.send(PendingNotification(name: name, request: request))
    }

    /// A notified event waiting to be posted.
    private struct PendingNotification: Sendable {
        let name: Notification.Name
        let request: Request
    }

    /// Posts a pass's notifications, in order.
    private static func post(_ notifications: [PendingNotification], to notifiers: [AlamofireNotifications]) {
        RequestUserInfo.forEach(notifications, request: \.request) { pending, userInfo in
            post(pending.name, userInfo: userInfo, to: notifiers)
        }
    }

    private static func post(_ name: Notification.Name, userInfo: [AnyHashable: Any]?,
                             to notifiers: [AlamofireNotifications]) {
        let notification = Notification(name: name, object: nil, userInfo: userInfo)
        // Each poster is borrowed from the list, not retained: they are shared by every request.
        notifiers.withUnsafeBufferPointer { posters in
            for index in posters.indices {
                Unmanaged.passUnretained(posters[index])._withUnsafeGuaranteedRef { $0.post(notification) }
            }
        }
    }

    public func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
        performEvent { $0.urlSession(session, didBecomeInvalidWithError: error) }
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge) {
        performEvent { $0.urlSession(session, task: task, didReceive: challenge) }
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
                           totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        performEvent {
            $0.urlSession(session, task: task, didSendBodyData: bytesSent, totalBytesSent: totalBytesSent,
                          totalBytesExpectedToSend: totalBytesExpectedToSend)
        }
    }

    public func urlSession(_ session: URLSession, taskNeedsNewBodyStream task: URLSessionTask) {
        performEvent { $0.urlSession(session, taskNeedsNewBodyStream: task) }
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                           newRequest request: URLRequest) {
        performEvent { $0.urlSession(session, task: task, willPerformHTTPRedirection: response, newRequest: request) }
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: TaskMetrics) {
        performEvent { $0.urlSession(session, task: task, didFinishCollecting: metrics) }
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        performEvent { $0.urlSession(session, task: task, didCompleteWithError: error) }
    }

    public func urlSession(_ session: URLSession, taskIsWaitingForConnectivity task: URLSessionTask) {
        performEvent { $0.urlSession(session, taskIsWaitingForConnectivity: task) }
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse) {
        performEvent { $0.urlSession(session, dataTask: dataTask, didReceive: response) }
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        performEvent { $0.urlSession(session, dataTask: dataTask, didReceive: data) }
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask,
                           willCacheResponse proposedResponse: CachedURLResponse) {
        performEvent { $0.urlSession(session, dataTask: dataTask, willCacheResponse: proposedResponse) }
    }

    public func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didResumeAtOffset fileOffset: Int64,
                           expectedTotalBytes: Int64) {
        performEvent { $0.urlSession(session, downloadTask: downloadTask, didResumeAtOffset: fileOffset,
                                     expectedTotalBytes: expectedTotalBytes) }
    }

    public func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
                           totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {
        performEvent {
            $0.urlSession(session, downloadTask: downloadTask, didWriteData: bytesWritten,
                          totalBytesWritten: totalBytesWritten, totalBytesExpectedToWrite: totalBytesExpectedToWrite)
        }
    }

    public func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        performEvent { $0.urlSession(session, downloadTask: downloadTask, didFinishDownloadingTo: location) }
    }

    public func request(_ request: Request, didCreateInitialURLRequest urlRequest: URLRequest) {
        performEvent { $0.request(request, didCreateInitialURLRequest: urlRequest) }
    }

    public func request(_ request: Request, didFailToCreateURLRequestWithError error: AFError) {
        performEvent { $0.request(request, didFailToCreateURLRequestWithError: error) }
    }

    public func request(_ request: Request, didAdaptInitialRequest initialRequest: URLRequest, to adaptedRequest: URLRequest) {
        performEvent { $0.request(request, didAdaptInitialRequest: initialRequest, to: adaptedRequest) }
    }

    public func request(_ request: Request, didFailToAdaptURLRequest initialRequest: URLRequest, withError error: AFError) {
        performEvent { $0.request(request, didFailToAdaptURLRequest: initialRequest, withError: error) }
    }

    public func request(_ request: Request, didCreateURLRequest urlRequest: URLRequest) {
        performEvent { $0.request(request, didCreateURLRequest: urlRequest) }
    }

    public func request(_ request: Request, didCreateTask task: URLSessionTask) {
        performEvent { $0.request(request, didCreateTask: task) }
    }

    public func request(_ request: Request, didGatherMetrics metrics: TaskMetrics) {
        performEvent { $0.request(request, didGatherMetrics: metrics) }
    }

    public func request(_ request: Request, didFailTask task: URLSessionTask, earlyWithError error: AFError) {
        performEvent { $0.request(request, didFailTask: task, earlyWithError: error) }
    }

    public func request(_ request: Request, didCompleteTask task: URLSessionTask, with error: AFError?) {
        performNotifiedEvent(Request.didCompleteTaskNotification, of: request) {
            $0.request(request, didCompleteTask: task, with: error)
        }
    }

    public func requestIsRetrying(_ request: Request) {
        performEvent { $0.requestIsRetrying(request) }
    }

    public func requestDidFinish(_ request: Request) {
        performNotifiedEvent(Request.didFinishNotification, of: request) { $0.requestDidFinish(request) }
    }

    public func requestDidResume(_ request: Request) {
        performNotifiedEvent(Request.didResumeNotification, of: request) { $0.requestDidResume(request) }
    }

    public func request(_ request: Request, didResumeTask task: URLSessionTask) {
        performNotifiedEvent(Request.didResumeTaskNotification, of: request) { $0.request(request, didResumeTask: task) }
    }

    public func requestDidSuspend(_ request: Request) {
        performNotifiedEvent(Request.didSuspendNotification, of: request) { $0.requestDidSuspend(request) }
    }

    public func request(_ request: Request, didSuspendTask task: URLSessionTask) {
        performNotifiedEvent(Request.didSuspendTaskNotification, of: request) { $0.request(request, didSuspendTask: task) }
    }

    public func requestDidCancel(_ request: Request) {
        performNotifiedEvent(Request.didCancelNotification, of: request) { $0.requestDidCancel(request) }
    }

    public func request(_ request: Request, didCancelTask task: URLSessionTask) {
        performNotifiedEvent(Request.didCancelTaskNotification, of: request) { $0.request(request, didCancelTask: task) }
    }

    public func request(_ request: DataRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                        data: Data?, withResult result: Request.ValidationResult) {
        performEvent { $0.request(request, didValidateRequest: urlRequest, response: response, data: data, withResult: result) }
    }

    public func request(_ request: DataRequest, didParseResponse response: DataResponse<Data?, AFError>) {
        performEvent { $0.request(request, didParseResponse: response) }
    }

    public func request<Value>(_ request: DataRequest, didParseResponse response: DataResponse<Value, AFError>) {
        performEvent { $0.request(request, didParseResponse: response) }
    }

    public func request(_ request: UploadRequest, didCreateUploadable uploadable: UploadRequest.Uploadable) {
        performEvent { $0.request(request, didCreateUploadable: uploadable) }
    }

    public func request(_ request: UploadRequest, didFailToCreateUploadableWithError error: AFError) {
        performEvent { $0.request(request, didFailToCreateUploadableWithError: error) }
    }

    public func request(_ request: UploadRequest, didProvideInputStream stream: InputStream) {
        nonisolated(unsafe) let stream = stream
        performEvent { $0.request(request, didProvideInputStream: stream) }
    }

    public func request(_ request: DownloadRequest, didFinishDownloadingUsing task: URLSessionTask, with result: Result<URL, AFError>) {
        performEvent { $0.request(request, didFinishDownloadingUsing: task, with: result) }
    }

    public func request(_ request: DownloadRequest, didCreateDestinationURL url: URL) {
        performEvent { $0.request(request, didCreateDestinationURL: url) }
    }

    public func request(_ request: DownloadRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                        fileURL: URL?, withResult result: Request.ValidationResult) {
        performEvent { $0.request(request, didValidateRequest: urlRequest, response: response, fileURL: fileURL, withResult: result) }
    }

    public func request(_ request: DownloadRequest, didParseResponse response: DownloadResponse<URL?, AFError>) {
        performEvent { $0.request(request, didParseResponse: response) }
    }

    public func request<Value>(_ request: DownloadRequest, didParseResponse response: DownloadResponse<Value, AFError>) {
        performEvent { $0.request(request, didParseResponse: response) }
    }

    public func request(_ request: DataStreamRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                        withResult result: Request.ValidationResult) {
        performEvent { $0.request(request, didValidateRequest: urlRequest, response: response, withResult: result) }
    }

    public func request<Value>(_ request: DataStreamRequest, didParseStream result: Result<Value, AFError>) {
        nonisolated(unsafe) let result = result
        performEvent { $0.request(request, didParseStream: result) }
    }
}
