import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Alamofire's AdvancedUsage examples, written as its users would write them (no @testable).
@Suite(.timeLimit(.minutes(1))) struct AdvancedUsageExamplesTests {
    /// The documentation's logging monitor.
    final class Logger: EventMonitor {
        let queue = DispatchQueue(label: "test.logger")
        let lines = LinesBox()

        func requestDidResume(_ request: Request) {
            lines.append("Resuming: \(request)")
        }

        func request<Value>(_ request: DataRequest, didParseResponse response: DataResponse<Value, AFError>) {
            lines.append("Finished: \(response.response?.statusCode ?? 0)")
        }
    }

    final class LinesBox: @unchecked Sendable {
        private let lock = NSLock()
        private var storage: [String] = []
        func append(_ line: String) { lock.lock(); storage.append(line); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return storage }
    }

    /// The documentation's token adapter.
    struct BearerAdapter: RequestAdapter {
        let token: String
        func adapt(_ urlRequest: URLRequest, for session: Session,
                   completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void) {
            var urlRequest = urlRequest
            urlRequest.headers.add(.authorization(bearerToken: token))
            completion(.success(urlRequest))
        }
    }

    @Test func loggerAdapterAndRetryPolicy() async throws {
        let logger = Logger()
        let url = Server.httpbin("/headers")
        let session = Session(interceptor: Interceptor(adapters: [BearerAdapter(token: "t0k3n")], retriers: [RetryPolicy()]),
                              eventMonitors: [logger])
        let echo = try await session.request(url).validate().serializingDecodable(HTTPBinResponse.self).value
        #expect(echo.headers["Authorization"] == "Bearer t0k3n")
        logger.queue.sync {}
        // The description is read when the event is delivered: the URL may not be known yet then.
        let lines = logger.lines.all
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("Resuming: ") == true)
        #expect(lines.last == "Finished: 200")
    }

    @Test func staticMemberSyntaxCompilesForOptionalParameters() {
        let session = Session(eventMonitors: [])
        let request = session.request("http://example.invalid/", interceptor: .retryPolicy)
        #expect(request.interceptor is RetryPolicy)
        let other = session.request("http://example.invalid/", interceptor: .connectionLostRetryPolicy)
        #expect(other.interceptor is ConnectionLostRetryPolicy)
        request.redirect(using: .doNotFollow)
        #expect(request.redirectHandler != nil)
        request.cacheResponse(using: .doNotCache)
        #expect(request.cachedResponseHandler != nil)
    }
}
