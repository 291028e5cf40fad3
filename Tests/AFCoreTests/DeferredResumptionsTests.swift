@testable import AFCore
import Dispatch
import Testing

@Suite struct DeferredResumptionsTests {
    @Test func resumptionsHeldInACollectionAreMadeAfterItInOrder() {
        let deferred = DeferredResumptions()
        let order = Protected<[String]>([])
        deferred.collecting {
            DeferredResumptions.current?.hold { order.withLock { $0.append("first") } }
            DeferredResumptions.current?.hold { order.withLock { $0.append("second") } }
            order.withLock { $0.append("body ends") }
        }
        #expect(order.withLock { $0 } == ["body ends", "first", "second"])
        #expect(DeferredResumptions.current == nil)
        #expect(deferred.heldCount == 0)
    }

    @Test func aCollectionInsideAnotherLeavesItsResumptionsToTheOuterOne() {
        let outer = DeferredResumptions()
        let inner = DeferredResumptions()
        let order = Protected<[String]>([])
        outer.collecting {
            inner.collecting {
                DeferredResumptions.current?.hold { order.withLock { $0.append("resumed") } }
                order.withLock { $0.append("inner ends") }
            }
            order.withLock { $0.append("outer ends") }
        }
        #expect(order.withLock { $0 } == ["inner ends", "outer ends", "resumed"])
        #expect(DeferredResumptions.current == nil)
    }

    @Test func aThreadReusesItsCollectionForAQueueAndItHoldsThatQueuesCalls() {
        let queue = DispatchQueue(label: "held")
        let other = DispatchQueue(label: "other")
        var first: DeferredResumptions?, second: DeferredResumptions?
        var holdsQueue = false, holdsFirstQueueLater = true, holdsOther = false
        DeferredResumptions.collecting(runningOn: queue) {
            first = DeferredResumptions.current
            holdsQueue = first?.holds(queue) ?? false
        }
        DeferredResumptions.collecting(runningOn: other) {
            second = DeferredResumptions.current
            holdsFirstQueueLater = second?.holds(queue) ?? true
            holdsOther = second?.holds(other) ?? false
        }
        #expect(first != nil && first === second)
        #expect(holdsQueue)
        #expect(!holdsFirstQueueLater)
        #expect(holdsOther)
        #expect(first?.holds(other) == false)
    }

    @Test func insideAnotherCollectionTheOuterOneHoldsWhatTheThreadsCollectionWouldHave() {
        let outer = DeferredResumptions()
        let queue = DispatchQueue(label: "held")
        let order = Protected<[String]>([])
        var current: DeferredResumptions?
        outer.collecting {
            DeferredResumptions.collecting(runningOn: queue) {
                current = DeferredResumptions.current
                DeferredResumptions.current?.hold { order.withLock { $0.append("resumed") } }
            }
            order.withLock { $0.append("outer ends") }
        }
        #expect(current === outer)
        #expect(!outer.holds(queue))
        #expect(order.withLock { $0 } == ["outer ends", "resumed"])
    }

    @Test func workHeldByTheThreadsCollectionThatCollectsAgainGetsACollectionOfItsOwn() {
        let queue = DispatchQueue(label: "held")
        let order = Protected<[String]>([])
        DeferredResumptions.collecting(runningOn: queue) {
            DeferredResumptions.current?.hold {
                // Runs while the thread's collection makes what it held: a new one collects this.
                DeferredResumptions.collecting(runningOn: queue) {
                    DeferredResumptions.current?.hold { order.withLock { $0.append("inner held") } }
                    order.withLock { $0.append("inner body") }
                }
                order.withLock { $0.append("outer held") }
            }
        }
        #expect(order.withLock { $0 } == ["inner body", "inner held", "outer held"])
        #expect(DeferredResumptions.current == nil)
    }

    @Test func outsideACollectionNothingIsHeld() {
        #expect(DeferredResumptions.current == nil)
    }

    @Test func aResponseDeliveredInACollectionResumesItsWaiterAfterIt() async {
        let awaited = AwaitedResponse<Int>()
        let waiter = Task { await awaited.value }
        while awaited.waiterCount == 0 { await Task.yield() }
        let deferred = DeferredResumptions()
        let heldWhileCollecting = Protected(-1)
        deferred.collecting {
            awaited.deliver(7)
            heldWhileCollecting.withLock { $0 = deferred.heldCount }
        }
        #expect(heldWhileCollecting.withLock { $0 } == 1)
        #expect(await waiter.value == 7)
    }

    @Test func aResponseDeliveredOutsideACollectionResumesAtOnce() async {
        let awaited = AwaitedResponse<Int>()
        let waiter = Task { await awaited.value }
        while awaited.waiterCount == 0 { await Task.yield() }
        awaited.deliver(3)
        #expect(await waiter.value == 3)
    }
}
