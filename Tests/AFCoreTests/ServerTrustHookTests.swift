@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The engine's trust hook: the handshake's chain goes to the evaluator the manager chose,
/// whose verdict decides the connection.
@Suite(.timeLimit(.minutes(1))) struct ServerTrustHookTests {
    struct Rejected: Error {}

    final class Recorder: ServerTrustEvaluating, @unchecked Sendable {
        let accepts: Bool
        let seen = Protected<[ServerTrust]>([])
        init(accepts: Bool) { self.accepts = accepts }

        func evaluate(_ trust: ServerTrust, forHost host: String) throws {
            seen.withLock { $0.append(trust) }
            if !accepts { throw Rejected() }
        }
    }

    /// A manager whose hosts need no evaluator unless told otherwise.
    static func manager(_ evaluators: [String: any ServerTrustEvaluating], allHostsMustBeEvaluated: Bool = false)
        -> ServerTrustManager {
        ServerTrustManager(allHostsMustBeEvaluated: allHostsMustBeEvaluated, evaluators: evaluators)
    }

    private func session(_ manager: ServerTrustManager, environment: [String: String]? = nil) -> Session {
        _ = TestServers.shared
        return Session(configuration: URLSessionConfiguration.af.default, rootQueue: DispatchQueue(label: "test.trust"),
                       serverTrustManager: manager,
                       environment: environment ?? ProcessInfo.processInfo.environment)
    }

    @Test func theEvaluatorSeesTheVerifiedChainAndDecides() async throws {
        let recorder = Recorder(accepts: true)
        let session = session(Self.manager(["localhost": recorder]))
        let response = await session.request(Server.https("/get")).serializingData().response
        #expect(response.error == nil)
        let trust = try #require(recorder.seen.value.first)
        #expect(trust.host == "localhost")
        #expect(trust.defaultEvaluationSucceeded)
        #expect(trust.defaultEvaluationError == nil)
        #expect(trust.certificateData.count == 2)  // the server's certificate and the test CA
    }

    @Test func aRejectionFailsTheRequestWithTheEvaluatorsError() async throws {
        let recorder = Recorder(accepts: false)
        let session = session(Self.manager(["localhost": recorder]))
        let response = await session.request(Server.https("/post"), method: .post, parameters: ["secret": "x"],
                                             headers: [.authorization(bearerToken: "token")]).serializingData().response
        guard case let .serverTrustEvaluationFailed(.customEvaluationFailed(error)) = response.error else {
            Issue.record("expected customEvaluationFailed, got \(String(describing: response.error))")
            return
        }
        #expect(error is Rejected)
        #expect(response.response == nil)
        #expect(recorder.seen.value.count == 1)
    }

    @Test func anEvaluatorMayAcceptWhatOpenSSLRejects() async throws {
        // Without SSL_CERT_FILE the test CA is unknown: OpenSSL's verdict is negative.
        let recorder = Recorder(accepts: true)
        let session = session(Self.manager(["localhost": recorder]), environment: [:])
        let response = await session.request(Server.https("/get")).serializingData().response
        #expect(response.error == nil)
        let trust = try #require(recorder.seen.value.first)
        #expect(!trust.defaultEvaluationSucceeded)
        #expect(trust.defaultEvaluationError != nil)
        #expect(trust.certificateData.count >= 1)
    }

    @Test func aHostWithoutARequiredEvaluatorIsNotContacted() async throws {
        let session = session(Self.manager([:], allHostsMustBeEvaluated: true))
        let response = await session.request(Server.https("/get")).serializingData().response
        guard case let .serverTrustEvaluationFailed(.noRequiredEvaluator(host)) = response.error else {
            Issue.record("expected noRequiredEvaluator, got \(String(describing: response.error))")
            return
        }
        #expect(host == "localhost")
        #expect(response.metrics?.transactionMetrics.first?.remoteAddress == nil)
    }

    @Test func hostsWithoutAnEvaluatorGetOpenSSLsVerification() async throws {
        let session = session(Self.manager([:]))
        #expect(await session.request(Server.https("/get")).serializingData().response.error == nil)
        let untrusting = self.session(Self.manager([:]), environment: [:])
        let response = await untrusting.request(Server.https("/get")).serializingData().response
        #expect(response.error?.urlErrorCode == .serverCertificateUntrusted || response.error?.urlErrorCode == .secureConnectionFailed)
    }
}

/// An evaluator asking to fetch something first: the fetch runs off the engine thread, then the
/// exchange starts again on a new connection, once.
@Suite(.timeLimit(.minutes(1))) struct ServerTrustPendingTests {
    final class Fetching: ServerTrustEvaluating, @unchecked Sendable {
        /// How many evaluations ask for a fetch before the evaluator decides (accepting).
        let pendingEvaluations: Int
        let evaluations = Protected(0)
        let fetchThreads = Protected<[pthread_t]>([])
        let evaluationThreads = Protected<[pthread_t]>([])
        init(pendingEvaluations: Int) { self.pendingEvaluations = pendingEvaluations }

        func evaluate(_ trust: ServerTrust, forHost host: String) throws {
            evaluationThreads.withLock { $0.append(pthread_self()) }
            let count = evaluations.withLock { count in
                count += 1
                return count
            }
            guard count > pendingEvaluations else {
                throw ServerTrustEvaluationPending { [fetchThreads] in
                    fetchThreads.withLock { $0.append(pthread_self()) }
                }
            }
        }
    }

    private func post(with evaluator: Fetching) async -> DataResponse<Data, AFError> {
        let session = makeSession(serverTrustManager: ServerTrustManager(allHostsMustBeEvaluated: false, evaluators: ["localhost": evaluator]))
        defer { withExtendedLifetime(session) {} }
        return await session.request(Server.https("/post"), method: .post, parameters: ["k": "v"]).serializingData().response
    }


    @Test func theExchangeRunsAgainAfterTheFetch() async throws {
        let evaluator = Fetching(pendingEvaluations: 1)
        let response = await post(with: evaluator)
        #expect(response.error == nil)
        #expect(response.response?.statusCode == 200)
        #expect(evaluator.evaluations.value == 2)
        #expect(evaluator.fetchThreads.value.count == 1)
        // Both evaluations ran on the engine thread; the fetch ran elsewhere.
        let engine = try #require(evaluator.evaluationThreads.value.first)
        #expect(evaluator.evaluationThreads.value == [engine, engine])
        #expect(evaluator.fetchThreads.value.allSatisfy { $0 != engine })
    }

    @Test func askingTwiceFailsTheRequest() async throws {
        let evaluator = Fetching(pendingEvaluations: 5)
        let response = await post(with: evaluator)
        guard case let .serverTrustEvaluationFailed(.customEvaluationFailed(error)) = response.error else {
            Issue.record("expected customEvaluationFailed, got \(String(describing: response.error))")
            return
        }
        #expect(error is ServerTrustEvaluationPending)
        #expect(evaluator.evaluations.value == 2)
        #expect(evaluator.fetchThreads.value.count == 1)
    }
}
