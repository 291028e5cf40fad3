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

    struct Manager: ServerTrustManaging {
        let evaluators: [String: any ServerTrustEvaluating]
        var allHostsMustBeEvaluated = false

        func serverTrustEvaluator(forHost host: String) throws -> (any ServerTrustEvaluating)? {
            if let evaluator = evaluators[host] { return evaluator }
            if allHostsMustBeEvaluated { throw AFError.serverTrustEvaluationFailed(reason: .noRequiredEvaluator(host: host)) }
            return nil
        }
    }

    private func session(_ manager: any ServerTrustManaging, environment: [String: String]? = nil) -> Session {
        _ = TestServers.shared
        return Session(configuration: URLSessionConfiguration.af.default, rootQueue: DispatchQueue(label: "test.trust"),
                       serverTrustManager: manager,
                       environment: environment ?? ProcessInfo.processInfo.environment)
    }

    @Test func theEvaluatorSeesTheVerifiedChainAndDecides() async throws {
        let recorder = Recorder(accepts: true)
        let session = session(Manager(evaluators: ["localhost": recorder]))
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
        let session = session(Manager(evaluators: ["localhost": recorder]))
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
        let session = session(Manager(evaluators: ["localhost": recorder]), environment: [:])
        let response = await session.request(Server.https("/get")).serializingData().response
        #expect(response.error == nil)
        let trust = try #require(recorder.seen.value.first)
        #expect(!trust.defaultEvaluationSucceeded)
        #expect(trust.defaultEvaluationError != nil)
        #expect(trust.certificateData.count >= 1)
    }

    @Test func aHostWithoutARequiredEvaluatorIsNotContacted() async throws {
        let session = session(Manager(evaluators: [:], allHostsMustBeEvaluated: true))
        let response = await session.request(Server.https("/get")).serializingData().response
        guard case let .serverTrustEvaluationFailed(.noRequiredEvaluator(host)) = response.error else {
            Issue.record("expected noRequiredEvaluator, got \(String(describing: response.error))")
            return
        }
        #expect(host == "localhost")
        #expect(response.metrics?.transactionMetrics.first?.remoteAddress == nil)
    }

    @Test func hostsWithoutAnEvaluatorGetOpenSSLsVerification() async throws {
        let session = session(Manager(evaluators: [:]))
        #expect(await session.request(Server.https("/get")).serializingData().response.error == nil)
        let untrusting = self.session(Manager(evaluators: [:]), environment: [:])
        let response = await untrusting.request(Server.https("/get")).serializingData().response
        #expect(response.error?.urlErrorCode == .serverCertificateUntrusted || response.error?.urlErrorCode == .secureConnectionFailed)
    }
}
