import Foundation

/// Which event a monitor is sent, named by the `ClosureEventMonitor` closure that hears it
/// (`withoutClosure`: an event no closure of that class hears).
///
/// A monitor of that class exactly (not a subclass, which may override the methods) hears an
/// event only through its closure, so its mailbox asks for it:
/// - as the event happens, when nothing is waiting for the monitor or being handed to it: an
///   event whose closure is not set then is dropped, and its arguments are never made;
/// - as the event is delivered, as the monitor's own method would: a closure cleared since is
///   not called.
///
/// While events are waiting or being handed over, each is kept for delivery, so a closure set
/// by another of the monitor's closures hears every event that comes after the one it was
/// set in, as in Alamofire. Every other monitor gets every event.
enum MonitoredEvent: Sendable, CaseIterable {
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
