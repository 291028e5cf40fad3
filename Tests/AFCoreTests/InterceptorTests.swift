@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Adapter, Retrier and Interceptor composition, without a server.
@Suite struct InterceptorCompositionTests {
    struct Failure: Error, Equatable { let name: String }

    private func header(_ value: String) -> Adapter {
        Adapter { request, _, completion in
            var request = request
            let current = request.value(forHTTPHeaderField: "X-Order").map { $0 + "," } ?? ""
            request.setValue(current + value, forHTTPHeaderField: "X-Order")
            completion(.success(request))
        }
    }

    private func adapt(_ adapter: any RequestAdapter) async -> Result<URLRequest, any Error> {
        let session = Session(eventMonitors: [])
        let request = URLRequest(url: URL(string: "http://example.invalid/")!)
        return await response { done in adapter.adapt(request, for: session) { done($0) } }
    }

    @Test func adaptersRunInOrder() async throws {
        let interceptor = Interceptor(adapters: [header("a"), header("b")], interceptors: [header("c")])
        let adapted = try await adapt(interceptor).get()
        #expect(adapted.value(forHTTPHeaderField: "X-Order") == "a,b,c")
    }

    @Test func theFirstFailingAdapterStopsTheChain() async {
        let failing = Adapter { _, _, completion in completion(.failure(Failure(name: "second"))) }
        let interceptor = Interceptor(adapters: [header("a"), failing, header("c")])
        let result = await adapt(interceptor)
        #expect((result.failure as? Failure) == Failure(name: "second"))
    }

    @Test func retriersAreAskedUntilOneDecides() async {
        let asked = Protected<[String]>([])
        func retrier(_ name: String, _ result: RetryResult) -> Retrier {
            Retrier { _, _, _, completion in
                asked.withLock { $0.append(name) }
                completion(result)
            }
        }
        let interceptor = Interceptor(retriers: [retrier("a", .doNotRetry), retrier("b", .retryWithDelay(2)),
                                                 retrier("c", .retry)])
        let session = Session(eventMonitors: [])
        let request = session.request("http://example.invalid/")
        let result: RetryResult = await response { done in
            interceptor.retry(request, for: session, dueTo: Failure(name: "x")) { done($0) }
        }
        #expect(result.delay == 2)
        #expect(asked.value == ["a", "b"])
    }

    @Test func noRetrierMeansDoNotRetry() async {
        let session = Session(eventMonitors: [])
        let request = session.request("http://example.invalid/")
        let result: RetryResult = await response { done in
            Interceptor().retry(request, for: session, dueTo: Failure(name: "x")) { done($0) }
        }
        #expect(!result.retryRequired)
    }

    @Test func staticBuilders() {
        let adapter: any RequestAdapter = .adapter { request, _, completion in completion(.success(request)) }
        let retrier: any RequestRetrier = .retrier { _, _, _, completion in completion(.doNotRetry) }
        let interceptor: any RequestInterceptor = .interceptor(adapter: adapter, retrier: retrier)
        #expect((interceptor as? Interceptor)?.adapters.count == 1)
        #expect((interceptor as? Interceptor)?.retriers.count == 1)
        let policy: any RequestInterceptor = .retryPolicy
        #expect((policy as? RetryPolicy)?.retryLimit == 2)
        let lost: any RequestInterceptor = .connectionLostRetryPolicy
        #expect((lost as? RetryPolicy)?.retryableURLErrorCodes == [.networkConnectionLost])
    }
}

extension Result {
    var failure: Failure? { if case let .failure(error) = self { error } else { nil } }
}
