import AFCore
import AFTestSupport
import Foundation
import Testing

/// A notification's `userInfo` holds its own request whatever is posted after it, on the same
/// thread: kept by an observer, or posted again from inside an observer's call. (Each thread
/// refills one dictionary for every notification it posts; these hold it to copy-on-write.)
@Suite struct NotificationUserInfoTests {
    @Test func aKeptNotificationKeepsItsRequest() {
        let session = makeSession(startRequestsImmediately: false)
        let first = session.request(Server.http("/get"))
        let second = session.request(Server.http("/get"))
        let kept = Protected<[Notification]>([])
        let observer = NotificationCenter.default.addObserver(forName: Request.didSuspendNotification, object: nil, queue: nil) { note in
            guard note.request === first || note.request === second else { return }
            kept.withLock { $0.append(note) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        let notifier = AlamofireNotifications()
        notifier.requestDidSuspend(first)
        notifier.requestDidSuspend(second)

        let requests = kept.withLock { $0.map(\.request) }
        #expect(requests.count == 2)
        #expect(requests.first.flatMap { $0 } === first)
        #expect(requests.last.flatMap { $0 } === second)
    }

    @Test func aNotificationPostedFromAnObserverLeavesTheOuterOnesRequest() {
        let session = makeSession(startRequestsImmediately: false)
        let outer = session.request(Server.http("/get"))
        let inner = session.request(Server.http("/get"))
        let notifier = AlamofireNotifications()
        let afterInner = Protected<[Request?]>([])
        let observer = NotificationCenter.default.addObserver(forName: Request.didSuspendNotification, object: nil, queue: nil) { note in
            guard note.request === outer else { return }
            notifier.requestDidSuspend(inner)
            afterInner.withLock { $0.append(note.request) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        notifier.requestDidSuspend(outer)

        let seen = afterInner.withLock { $0 }
        #expect(seen.count == 1)
        #expect(seen.first.flatMap { $0 } === outer)
    }
}
