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

    /// Notifications of requests on `rootQueue` are posted in runs, one dictionary refilled for
    /// each: a post from inside an observer's call, in the middle of a run, changes neither the
    /// notification being posted nor the next one of the run.
    @Test func eachNotificationOfARunHoldsItsOwnRequest() {
        // An event monitor keeps the requests on `rootQueue`, whose notifications go out in runs.
        let session = makeSession(startRequestsImmediately: false, eventMonitors: [ClosureEventMonitor()])
        let first = session.request(Server.http("/get"))
        let second = session.request(Server.http("/get"))
        let inner = session.request(Server.http("/get"))
        let notifier = AlamofireNotifications()
        let seen = Protected<[Request?]>([])
        let innerPosts = Protected(0)
        let observer = NotificationCenter.default.addObserver(forName: Request.didSuspendNotification, object: nil, queue: nil) { note in
            if note.request === inner { return innerPosts.withLock { $0 += 1 } }
            guard note.request === first || note.request === second else { return }
            if note.request === first { notifier.requestDidSuspend(inner) }
            seen.withLock { $0.append(note.request) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        // Both suspensions are announced on `rootQueue` after this block, before the event
        // monitor's queue (which runs behind `rootQueue`) posts: one run holds both.
        session.rootQueue.sync {
            first.suspend()
            second.suspend()
        }
        session.rootQueue.sync {}  // the announcements
        session.eventMonitor.queue.sync {}  // the run that posts them

        let requests = seen.withLock { $0 }
        #expect(requests.count == 2)
        #expect(requests.first.flatMap { $0 } === first)
        #expect(requests.last.flatMap { $0 } === second)
        #expect(innerPosts.withLock { $0 } == 1)
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
