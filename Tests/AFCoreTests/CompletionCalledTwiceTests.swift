@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A user's adapter, retrier or redirect handler that calls its completion twice: only the first
/// call counts (no request is sent twice, no handler runs twice).
@Suite(.timeLimit(.minutes(1))) struct CompletionCalledTwiceTests {
    struct Attempt: Decodable, Sendable { let attempt: Int }

    @Test func anAdapterCallingBackTwiceSendsTheRequestOnce() async throws {
        let twice = Adapter { request, _, completion in
            completion(.success(request))
            completion(.success(request))
        }
        let session = makeSession()
        let handled = Protected(0)
        let request = session.request(Server.faults("/flaky-json/\(uniqueKey())?fail=0"), method: .post, interceptor: twice)
        let value: Attempt = try await withCheckedThrowingContinuation { continuation in
            request.responseDecodable(of: Attempt.self) { response in
                handled.withLock { $0 += 1 }
                continuation.resume(with: response.result.mapError { $0 as any Error })
            }
        }
        #expect(value.attempt == 1)
        session.rootQueue.sync {}
        #expect(request.tasks.count == 1)
        #expect(handled.value == 1)
    }

    @Test func aRetrierCallingBackTwiceRetriesOnce() async throws {
        let twice = Retrier { request, _, _, completion in
            let answer: RetryResult = request.retryCount == 0 ? .retry : .doNotRetry
            completion(answer)
            completion(answer)
        }
        let session = makeSession(interceptor: twice)
        let request = session.request(Server.faults("/flaky-json/\(uniqueKey())?fail=1"))
        let value = try await request.serializingDecodable(Attempt.self).value
        #expect(value.attempt == 2)
        session.rootQueue.sync {}
        #expect(request.retryCount == 1)
        #expect(request.tasks.count == 2)
    }

    @Test func aRedirectHandlerCallingBackTwiceFollowsOnce() async throws {
        struct Twice: RedirectHandler {
            func task(_ task: URLSessionTask, willBeRedirectedTo request: URLRequest, for response: HTTPURLResponse,
                      completion: @escaping (URLRequest?) -> Void) {
                completion(request)
                completion(request)
            }
        }
        let session = makeSession(redirectHandler: Twice())
        let response = await session.request(Server.faults("/redirect-body?size=10")).serializingData().response
        #expect(response.data?.count == 3)
        #expect(response.metrics?.transactionMetrics.count == 2)
    }
}
