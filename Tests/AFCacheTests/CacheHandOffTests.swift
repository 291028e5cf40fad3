import AFCache
@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A cache hit never reaches the engine: to `rootQueue`, where the cache is read and the
/// response serialized, then to the handler's queue or the awaiting task. Storing a response
/// adds no trip to the network path's three (when nothing else runs).
@Suite(.timeLimit(.minutes(1))) struct CacheHandOffTests {
    @Test func aStoredResponseCostsNoTripAndAHitTwo() async throws {
        let scratch = SQLiteURLCacheTests.Scratch()
        let configuration = URLSessionConfiguration.af.default
        configuration.urlCache = try SQLiteURLCache(fileURL: scratch.file)
        let root = DispatchQueue(label: "org.alamofire.test.heldRoot")
        let session = makeSession(configuration: configuration, rootQueue: root)
        let url = CacheProbe.url(uniqueKey(), ["Cache-Control:max-age=3600"])

        func trips(callback: Bool) async -> (Int, TransactionMetrics.ResourceFetchType?) {
            root.suspend()  // the handler is added before the session takes the request in
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
        #expect(stored.0 == 3 && stored.1 == .networkLoad)
        let hit = await trips(callback: true)
        #expect(hit.0 == 2 && hit.1 == .localCache)
        let awaitedHit = await trips(callback: false)
        #expect(awaitedHit.0 == 2 && awaitedHit.1 == .localCache)
    }
}
