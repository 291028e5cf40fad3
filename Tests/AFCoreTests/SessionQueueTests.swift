@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The rootQueue, requestQueue and serializationQueue parameters, with Alamofire's roles.
@Suite(.timeLimit(.minutes(1))) struct SessionQueueTests {
    struct MarkedConvertible: URLRequestConvertible {
        let url: String
        let marker: QueueMarker
        let ranOnMarkedQueue: Protected<Bool?>
        func asURLRequest() throws -> URLRequest {
            ranOnMarkedQueue.withLock { $0 = marker.isCurrent }
            return try URLRequest(url: url, method: .get)
        }
    }

    struct MarkedSerializer: DataResponseSerializerProtocol {
        let marker: QueueMarker
        func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> Bool {
            marker.isCurrent
        }
    }

    @Test func eachQueueDoesItsJob() async throws {
        let root = DispatchQueue(label: "test.root")
        let requests = DispatchQueue(label: "test.requests")
        let serialization = DispatchQueue(label: "test.serialization")
        let rootMarker = QueueMarker(root, name: "root")
        let requestMarker = QueueMarker(requests, name: "requests")
        let serializationMarker = QueueMarker(serialization, name: "serialization")

        let adaptedOnRoot = Protected<Bool?>(nil)
        let retriedOnRoot = Protected<Bool?>(nil)
        let interceptor = Interceptor(adaptHandler: { request, _, completion in
            adaptedOnRoot.withLock { $0 = rootMarker.isCurrent }
            completion(.success(request))
        }, retryHandler: { _, _, _, completion in
            retriedOnRoot.withLock { $0 = rootMarker.isCurrent }
            completion(.doNotRetry)
        })
        _ = TestServers.shared
        let session = Session(rootQueue: root, requestQueue: requests, serializationQueue: serialization,
                              interceptor: interceptor)
        let built = Protected<Bool?>(nil)
        let request = session.request(MarkedConvertible(url: Server.httpbin("/status/500"), marker: requestMarker,
                                                        ranOnMarkedQueue: built)).validate()
        let serializedOnQueue = await response { done in
            request.response(queue: .global(), responseSerializer: MarkedSerializer(marker: serializationMarker)) {
                done($0.value)
            }
        }
        #expect(built.value == true)
        #expect(adaptedOnRoot.value == true)
        #expect(retriedOnRoot.value == true)
        #expect(serializedOnQueue == true)
    }

    @Test func defaultQueuesTargetTheRootQueue() {
        let root = DispatchQueue(label: "test.root-default")
        let marker = QueueMarker(root, name: "root-default")
        let session = Session(rootQueue: root)
        #expect(session.requestQueue.sync { marker.isCurrent })
        #expect(session.serializationQueue.sync { marker.isCurrent })
    }
}
