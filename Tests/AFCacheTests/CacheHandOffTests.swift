import AFCache
@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A cache hit never reaches the engine. On `rootQueue` (a session with a hook, here a
/// monitor): a trip there, where the cache is read and the response serialized, then one to
/// the handler's queue or the awaiting task; storing a response adds no trip to the network
/// path's three (when nothing else runs). On a queue of the request's own, the caller reads
/// the cache there itself: a hit costs only the trip to the handler.
@Suite(.timeLimit(.minutes(1))) struct CacheHandOffTests {
    @Test func onRootQueueAStoredResponseCostsNoTripAndAHitTwo() async throws {
        let trips = try await measure(onRootQueue: true)
        #expect(trips.stored == 3 && trips.hit == 2 && trips.awaitedHit == 2)
    }

    @Test func onItsOwnQueueAStoredResponseCostsNoTripAndAHitOne() async throws {
        let trips = try await measure(onRootQueue: false)
        #expect(trips.stored == 2 && trips.hit == 1 && trips.awaitedHit == 1)
    }

    /// The trips of a request that stores its response, of a hit with a handler and of an awaited hit.
    private func measure(onRootQueue: Bool) async throws -> (stored: Int, hit: Int, awaitedHit: Int) {
        let scratch = SQLiteURLCacheTests.Scratch()
        let configuration = URLSessionConfiguration.af.default
        configuration.urlCache = try SQLiteURLCache(fileURL: scratch.file)
        let root = DispatchQueue(label: "org.alamofire.test.heldRoot")
        let monitors = onRootQueue ? [ClosureEventMonitor(queue: DispatchQueue(label: "test.idle-monitor"))] : []
        let session = makeSession(configuration: configuration, rootQueue: root, eventMonitors: monitors)
        let url = CacheProbe.url(uniqueKey(), ["Cache-Control:max-age=3600"])

        func trips(callback: Bool) async -> (Int, TransactionMetrics.ResourceFetchType?) {
            root.suspend()  // on rootQueue, the handler is added before the session takes the request in
            let request = session.request(url)
            let fetchType: TransactionMetrics.ResourceFetchType?
            if callback {
                fetchType = await withCheckedContinuation { continuation in
                    request.responseData(queue: .global()) {
                        continuation.resume(returning: $0.metrics?.transactionMetrics.last?.resourceFetchType)
                    }
                    root.resume()
                }
            } else {
                let task = request.serializingData()
                root.resume()
                fetchType = await task.response.metrics?.transactionMetrics.last?.resourceFetchType
            }
            return (request.handOffs.value, fetchType)
        }

        let stored = await trips(callback: true)
        #expect(stored.1 == .networkLoad)
        let hit = await trips(callback: true)
        #expect(hit.1 == .localCache)
        let awaitedHit = await trips(callback: false)
        #expect(awaitedHit.1 == .localCache)
        return (stored.0, hit.0, awaitedHit.0)
    }
}
