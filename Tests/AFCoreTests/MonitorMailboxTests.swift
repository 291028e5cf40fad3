@testable import AFCore
import Dispatch
import Foundation
import Testing

/// A monitor's events reach its queue in the order sent, a run of them in one pass of the queue.
@Suite struct MonitorMailboxTests {
    /// Records what runs on its queue, events and other blocks alike.
    final class Log: EventMonitor, @unchecked Sendable {
        let queue = DispatchQueue(label: "test.mailbox-monitor")
        private(set) var entries: [String] = []  // only touched on `queue`

        func add(_ entry: String) { entries.append(entry) }
        static func event(_ name: String) -> @Sendable (any EventMonitor) -> Void {
            { monitor in (monitor as? Log)?.add(name) }
        }
    }

    @Test func eventsSentWhileTheQueueIsBusyArriveInOnePassInOrder() {
        let log = Log()
        let mailbox = MonitorMailbox(for: log)
        log.queue.suspend()
        for name in ["first", "second", "third"] { mailbox.send(Log.event(name)) }
        // Queued after the first event's pass was scheduled, before the fourth event is sent.
        log.queue.async { log.add("other block") }
        mailbox.send(Log.event("fourth"))
        log.queue.resume()
        // The pass scheduled by the first event delivers all four: one wake-up of the queue,
        // not one per event (each sent with its own `async`, the fourth would come after the
        // other block).
        #expect(log.queue.sync { log.entries } == ["first", "second", "third", "fourth", "other block"])
    }

    @Test func anEventSentAfterAPassSchedulesAnother() {
        let log = Log()
        let mailbox = MonitorMailbox(for: log)
        mailbox.send(Log.event("first"))
        log.queue.sync {}
        mailbox.send(Log.event("second"))
        #expect(log.queue.sync { log.entries } == ["first", "second"])
    }

    /// A monitor whose event leads to another event (a monitor calling into its request): the
    /// new one comes in the next pass, after the rest of the current one.
    @Test func anEventSentFromAnEventComesAfterThoseAlreadyWaiting() {
        let log = Log()
        let mailbox = MonitorMailbox(for: log)
        log.queue.suspend()
        mailbox.send { monitor in
            (monitor as? Log)?.add("first")
            mailbox.send(Log.event("sent by first"))
        }
        mailbox.send(Log.event("second"))
        log.queue.resume()
        log.queue.sync {}  // the first pass; it scheduled the second
        #expect(log.queue.sync { log.entries } == ["first", "second", "sent by first"])
    }

    @Test func eventsFromManyThreadsEachArriveOnceInTheOrderEachThreadSentThem() {
        let log = Log()
        let mailbox = MonitorMailbox(for: log)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<500 { mailbox.send(Log.event("\(thread):\(index)")) }
        }
        let entries = log.queue.sync { log.entries }
        #expect(entries.count == 8 * 500)
        for thread in 0..<8 {
            let own = entries.filter { $0.hasPrefix("\(thread):") }
            #expect(own == (0..<500).map { "\(thread):\($0)" })
        }
    }

    @Test func anEventNoClosureHearsIsNotSentToAClosureMonitor() {
        let monitor = ClosureEventMonitor(queue: DispatchQueue(label: "test.mailbox-closures"))
        let mailbox = MonitorMailbox(for: monitor)
        let event: MonitorMailbox.Deliver = { _ in }
        #expect(!mailbox.mayTake(.withoutClosure))
        #expect(!mailbox.offer(event, as: .withoutClosure))
        #expect(mailbox.mayTake(.requestDidFinish), "judged when delivered, not when sent")
        #expect(MonitorMailbox(for: Log()).mayTake(.withoutClosure), "any other monitor gets every event")
    }

    /// An event is judged by the closures the monitor has when it is delivered, as in Alamofire:
    /// a closure set while the event waits hears it.
    @Test func eachEventIsJudgedWhenDelivered() {
        let monitor = ClosureEventMonitor(queue: DispatchQueue(label: "test.mailbox-closures"))
        let mailbox = MonitorMailbox(for: monitor)
        let heard = Protected<[String]>([])
        monitor.requestDidResume = { _ in heard.withLock { $0.append("resume") } }
        monitor.queue.suspend()
        let request = Session(startRequestsImmediately: false).request("http://127.0.0.1:9/")
        let resume: MonitorMailbox.Deliver = { $0.requestDidResume(request) }
        let finish: MonitorMailbox.Deliver = { $0.requestDidFinish(request) }
        let cancel: MonitorMailbox.Deliver = { $0.requestDidCancel(request) }
        #expect(mailbox.offer(resume, as: .requestDidResume))
        #expect(mailbox.offer(finish, as: .requestDidFinish))
        #expect(mailbox.offer(cancel, as: .requestDidCancel))
        monitor.requestDidFinish = { _ in heard.withLock { $0.append("finish") } }
        monitor.queue.resume()
        monitor.queue.sync {}
        #expect(heard.value == ["resume", "finish"])
    }

    /// A session's monitors are asked whether one may hear an event before it is made.
    @Test func theMonitorsAreAskedWhetherOneMayHearAnEvent() {
        let queue = DispatchQueue(label: "test.composite")
        let log = Log()
        let mixed = CompositeEventMonitor(queue: queue, monitors: [ClosureEventMonitor(), log])
        #expect(mixed.mayTake(.withoutClosure))
        mixed.offerEvent(.withoutClosure, Log.event("parsed"))
        #expect(log.queue.sync { log.entries } == ["parsed"])
        let closuresOnly = CompositeEventMonitor(queue: queue, monitors: [ClosureEventMonitor(), ClosureEventMonitor()])
        #expect(!closuresOnly.mayTake(.withoutClosure))
        #expect(closuresOnly.mayTake(.requestDidFinish))
    }
}
