import Foundation

extension Request {
    /// Posted when a request is resumed; the request is in `userInfo`.
    public static let didResumeNotification = Notification.Name(rawValue: "org.alamofire.notification.name.request.didResume")
    /// Posted when a request is suspended.
    public static let didSuspendNotification = Notification.Name(rawValue: "org.alamofire.notification.name.request.didSuspend")
    /// Posted when a request is cancelled.
    public static let didCancelNotification = Notification.Name(rawValue: "org.alamofire.notification.name.request.didCancel")
    /// Posted when a request finishes.
    public static let didFinishNotification = Notification.Name(rawValue: "org.alamofire.notification.name.request.didFinish")
    /// Posted when a request's task is resumed.
    public static let didResumeTaskNotification = Notification.Name(rawValue: "org.alamofire.notification.name.request.didResumeTask")
    /// Posted when a request's task is suspended.
    public static let didSuspendTaskNotification = Notification.Name(rawValue: "org.alamofire.notification.name.request.didSuspendTask")
    /// Posted when a request's task is cancelled.
    public static let didCancelTaskNotification = Notification.Name(rawValue: "org.alamofire.notification.name.request.didCancelTask")
    /// Posted when a request's task completes.
    public static let didCompleteTaskNotification = Notification.Name(rawValue: "org.alamofire.notification.name.request.didCompleteTask")
}

extension Notification {
    /// The `Request` a notification is about.
    public var request: Request? {
        userInfo?[String.requestKey] as? Request
    }
}

extension String {
    static let requestKey = "org.alamofire.notification.key.request"
}

/// Posts the `Request.did…Notification`s on `NotificationCenter.default`. Part of every
/// Session's monitors unless `eventMonitors` says otherwise.
///
/// Unlike Alamofire, it does not post on the main queue, which Linux daemons often never run
/// (events for it would pile up without bound). Among a Session's monitors it posts on the
/// session's serial event-monitor queue, which runs behind `rootQueue`, or, for a request on a
/// queue of its own, on that queue as its events happen: observers may be called from several
/// threads at once and should return quickly. Called on its own, it uses `queue`.
public final class AlamofireNotifications: EventMonitor {
    public let queue = DispatchQueue(label: "org.alamofire.notifications")
    /// `NotificationCenter.default`, read once: each read of the class property hands out a
    /// reference of its own, counted on an object every thread shares.
    private let center = NotificationCenter.default

    /// A monitor posting on `NotificationCenter.default`.
    public init() {}

    func post(_ name: Notification.Name, _ request: Request) {
        RequestUserInfo.with(request) { post(Notification(name: name, object: nil, userInfo: $0)) }
    }

    func post(_ notification: Notification) {
        center.post(notification)
    }

    public func requestDidResume(_ request: Request) { post(Request.didResumeNotification, request) }
    public func requestDidSuspend(_ request: Request) { post(Request.didSuspendNotification, request) }
    public func requestDidCancel(_ request: Request) { post(Request.didCancelNotification, request) }
    public func requestDidFinish(_ request: Request) { post(Request.didFinishNotification, request) }
    public func request(_ request: Request, didResumeTask task: URLSessionTask) { post(Request.didResumeTaskNotification, request) }
    public func request(_ request: Request, didSuspendTask task: URLSessionTask) { post(Request.didSuspendTaskNotification, request) }
    public func request(_ request: Request, didCancelTask task: URLSessionTask) { post(Request.didCancelTaskNotification, request) }
    public func request(_ request: Request, didCompleteTask task: URLSessionTask, with error: AFError?) {
        post(Request.didCompleteTaskNotification, request)
    }
}
