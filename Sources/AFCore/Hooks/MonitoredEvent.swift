import Foundation

/// The events whose arguments cost something to make (the request's `URLSessionTask` object, an
/// `HTTPURLResponse`): those of every request, of a transfer as it goes on, of every redirect,
/// cached response and download. Each is named by the `ClosureEventMonitor` closure that hears it.
///
/// A monitor of that class exactly (not a subclass, which may override the methods) is asked
/// as each such event is delivered whether it has the event's closure: without it, the event
/// is not delivered and its arguments are never made. Asking at delivery, as the monitor's own
/// method would, keeps what it hears unchanged. Every other monitor gets every event.
enum MonitoredEvent: Sendable, CaseIterable {
    case requestDidCreateTask
    case requestDidResumeTask
    case requestDidSuspendTask
    case requestDidCancelTask
    case requestDidCompleteTaskWithError
    case requestDidValidateRequestResponseDataWithResult
    case requestDidFinishDownloadingUsingTaskWithResult
    case taskDidSendBodyData
    case taskWillPerformHTTPRedirection
    case taskDidFinishCollectingMetrics
    case taskDidComplete
    case dataTaskDidReceiveResponse
    case dataTaskDidReceiveData
    case dataTaskWillCacheResponse
    case downloadTaskDidFinishDownloadingToURL
    case downloadTaskDidWriteData
    case downloadTaskDidResumeAtOffset

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
