import Foundation

/// Which event a monitor is sent, named by the `ClosureEventMonitor` closure that hears it
/// (`withoutClosure`: an event no closure of that class hears).
///
/// A monitor of that class exactly (not a subclass, which may override the methods) hears an
/// event only through its closure. Its mailbox asks, as each event is delivered, whether that
/// closure is set, as the monitor's own method would: without it, the event's arguments (a task
/// object, an `HTTPURLResponse`) are never made. An event no closure hears is not sent to it at
/// all. Every other monitor gets every event.
enum MonitoredEvent: Int, Sendable, CaseIterable {
    case sessionDidBecomeInvalidWithError
    case taskDidReceiveChallenge
    case taskDidSendBodyData
    case taskNeedNewBodyStream
    case taskWillPerformHTTPRedirection
    case taskDidFinishCollectingMetrics
    case taskDidComplete
    case taskIsWaitingForConnectivity
    case dataTaskDidReceiveResponse
    case dataTaskDidReceiveData
    case dataTaskWillCacheResponse
    case downloadTaskDidFinishDownloadingToURL
    case downloadTaskDidWriteData
    case downloadTaskDidResumeAtOffset
    case requestDidCreateInitialURLRequest
    case requestDidFailToCreateURLRequestWithError
    case requestDidAdaptInitialRequestToAdaptedRequest
    case requestDidFailToAdaptURLRequestWithError
    case requestDidCreateURLRequest
    case requestDidCreateTask
    case requestDidGatherMetrics
    case requestDidFailTaskEarlyWithError
    case requestDidCompleteTaskWithError
    case requestIsRetrying
    case requestDidFinish
    case requestDidResume
    case requestDidResumeTask
    case requestDidSuspend
    case requestDidSuspendTask
    case requestDidCancel
    case requestDidCancelTask
    case requestDidValidateRequestResponseDataWithResult
    case requestDidParseResponse
    case requestDidValidateRequestResponseWithResult
    case requestDidCreateUploadable
    case requestDidFailToCreateUploadableWithError
    case requestDidProvideInputStream
    case requestDidFinishDownloadingUsingTaskWithResult
    case requestDidCreateDestinationURL
    case requestDidValidateRequestResponseFileURLWithResult
    case requestDidParseDownloadResponse
    /// A serialized response of any type but the unserialized one, or a stream's parsed chunk.
    case withoutClosure

    /// The event's bit in a `ClosureEventMonitor`'s set of closures.
    var bit: UInt64 { 1 << UInt64(rawValue) }

    /// `monitor` as a `ClosureEventMonitor` whose closures tell which events it hears: one of
    /// that class exactly; nil for any other monitor.
    static func closures(of monitor: any EventMonitor) -> ClosureEventMonitor? {
        guard ObjectIdentifier(type(of: monitor)) == ObjectIdentifier(ClosureEventMonitor.self) else { return nil }
        return monitor as? ClosureEventMonitor
    }
}

extension Optional where Wrapped == MonitoredEvent {
    /// Whether `monitor` would not hear the event (see `MonitoredEvent`); false for an event
    /// without a name.
    func isSkipped(by monitor: ClosureEventMonitor?) -> Bool {
        guard let self, let monitor else { return false }
        return !monitor.hasClosure(for: self)
    }
}
