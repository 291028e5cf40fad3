@testable import AFCore
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
