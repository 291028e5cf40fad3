import AFTestSupport
@testable import AFTrust
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The trust evaluators against the loopback matrix (Tests/Fixtures/tls_matrix.py).
@Suite(.timeLimit(.minutes(1))) struct TrustMatrixTests {
    static func certificate(_ name: String) throws -> Certificate {
        let directory = TestServers.shared.all["directory"]!
        return try #require(try Certificate.certificates(at: URL(fileURLWithPath: "\(directory)/matrix/\(name).pem")).first)
    }

    static var testRootCA: Certificate {
        get throws { try #require(try Certificate.certificates(at: URL(fileURLWithPath: TestServers.shared.caFile)).first) }
    }

    private func session(_ evaluator: any ServerTrustEvaluating) -> Session {
        makeSession(serverTrustManager: ServerTrustManager(evaluators: ["localhost": evaluator]))
    }

    private func post(_ matrixCase: String, with evaluator: any ServerTrustEvaluating) async -> AFError? {
        await MatrixProbe.post(matrixCase, with: evaluator)
    }

    private func defaultFailureDetail(_ error: AFError?) -> String? {
        guard case let .serverTrustEvaluationFailed(.defaultEvaluationFailed(output)) = error else { return nil }
        return output.detail
    }

    @Test func theRequestLogSeesAcceptedRequests() async throws {
        // The control for the "carried no request" checks: nginx logs a request when it is done
        // with it, before it reads the next one on the same keep-alive connection.
        let session = session(DefaultTrustEvaluator())
        let path = "/matrix-\(UUID().uuidString)"
        _ = await session.request(Server.tls("valid", path), headers: [.authorization(bearerToken: "t")]).serializingString().response
        _ = await session.request(Server.tls("valid", "/next")).serializingString().response
        #expect(Server.tlsLog("valid").contains("\(path)|Bearer t|"))
    }

    @Test func aValidChainIsAccepted() async throws {
        #expect(await post("valid", with: DefaultTrustEvaluator()) == nil)
        #expect(await post("intermediate", with: DefaultTrustEvaluator()) == nil)
    }

    @Test(arguments: [("expired", "expired"), ("not-yet-valid", "not yet valid"), ("self-signed", "self-signed"),
                      ("untrusted-root", "local issuer"), ("incomplete-chain", "local issuer")])
    func badChainsFailDefaultEvaluationWithOpenSSLsReason(matrixCase: String, reason: String) async throws {
        let error = await post(matrixCase, with: DefaultTrustEvaluator())
        let detail = try #require(defaultFailureDetail(error), "got \(String(describing: error))")
        #expect(detail.contains(reason))
    }

    @Test func aWrongHostFailsHostValidation() async throws {
        let error = await post("wrong-host", with: DefaultTrustEvaluator())
        guard case let .serverTrustEvaluationFailed(.hostValidationFailed(output)) = error else {
            Issue.record("expected hostValidationFailed, got \(String(describing: error))")
            return
        }
        #expect(output.host == "localhost")
        #expect(await post("wrong-host", with: DefaultTrustEvaluator(validateHost: false)) == nil)
    }

    @Test func disabledEvaluationAcceptsAnything() async throws {
        #expect(await post("self-signed", with: DisabledTrustEvaluator()) == nil)
        #expect(await post("expired", with: DisabledTrustEvaluator()) == nil)
    }

    @Test func pinnedCertificatesMatchAnyCertificateOfTheChain() async throws {
        // The test root pinned: it is in the verified chain of the intermediate case.
        #expect(await post("intermediate", with: PinnedCertificatesTrustEvaluator(certificates: [try Self.testRootCA])) == nil)
        #expect(await post("valid", with: PinnedCertificatesTrustEvaluator(certificates: [try Self.certificate("valid")])) == nil)
        let error = await post("valid", with: PinnedCertificatesTrustEvaluator(certificates: [try Self.certificate("wrong-host")]))
        guard case .serverTrustEvaluationFailed(.certificatePinningFailed) = error else {
            Issue.record("expected certificatePinningFailed, got \(String(describing: error))")
            return
        }
    }

    @Test func aPinnedSelfSignedCertificateIsAcceptedOnlyWhenAsked() async throws {
        let selfSigned = try Self.certificate("self-signed")
        #expect(await post("self-signed", with: PinnedCertificatesTrustEvaluator(certificates: [selfSigned],
                                                                                 acceptSelfSignedCertificates: true)) == nil)
        #expect(defaultFailureDetail(await post("self-signed", with: PinnedCertificatesTrustEvaluator(certificates: [selfSigned]))) != nil)
    }

    @Test func anInternalCAIsAcceptedOnlyWhereConfigured() async throws {
        let internalCA = try Self.certificate("internal-ca")
        let configured = PinnedCertificatesTrustEvaluator(certificates: [internalCA], acceptSelfSignedCertificates: true)
        #expect(await post("untrusted-root", with: configured) == nil)
        #expect(defaultFailureDetail(await post("untrusted-root", with: DefaultTrustEvaluator())) != nil)
        // The internal CA does not vouch for a chain it did not sign.
        #expect(await post("self-signed", with: configured) != nil)
    }

    /// A Session that trusts no private CA (the system bundle only), pinning `evaluator` for localhost.
    private func untrustingSession(_ evaluator: any ServerTrustEvaluating) -> Session {
        _ = TestServers.shared
        return Session(serverTrustManager: ServerTrustManager(evaluators: ["localhost": evaluator]), environment: [:])
    }

    @Test func pinnedCertificatesAreAnchorsEvenWhenNotSelfSigned() async throws {
        // As on Apple platforms: a pinned leaf or intermediate is trusted as an anchor, without
        // the CA that issued it.
        let leaf = try Self.certificate("untrusted-root")
        let pinnedLeaf = untrustingSession(PinnedCertificatesTrustEvaluator(certificates: [leaf], acceptSelfSignedCertificates: true))
        #expect(await MatrixProbe.post("untrusted-root", on: pinnedLeaf) == nil)

        let intermediate = try Self.certificate("internal-intermediate")
        let pinnedIntermediate = untrustingSession(PinnedCertificatesTrustEvaluator(certificates: [intermediate],
                                                                                    acceptSelfSignedCertificates: true))
        #expect(await MatrixProbe.post("internal-chain", on: pinnedIntermediate) == nil)
        // The intermediate vouches only for what it signed.
        #expect(await MatrixProbe.post("untrusted-root", on: pinnedIntermediate) != nil)
        // Without acceptSelfSignedCertificates the default validation applies, which fails.
        let strict = untrustingSession(PinnedCertificatesTrustEvaluator(certificates: [leaf]))
        #expect(defaultFailureDetail(await MatrixProbe.post("untrusted-root", on: strict)) != nil)
    }

    @Test func aPinnedAnchorIsStillCheckedForDatesAndHost() async throws {
        let expired = try Self.certificate("expired")
        let error = await MatrixProbe.post("expired", on: untrustingSession(
            PinnedCertificatesTrustEvaluator(certificates: [expired], acceptSelfSignedCertificates: true)))
        #expect(defaultFailureDetail(error)?.contains("expired") == true, "\(String(describing: error))")

        let otherHost = try Self.certificate("wrong-host")
        let wrongHost = await MatrixProbe.post("wrong-host", on: untrustingSession(
            PinnedCertificatesTrustEvaluator(certificates: [otherHost], acceptSelfSignedCertificates: true)))
        guard case .serverTrustEvaluationFailed(.hostValidationFailed) = wrongHost else {
            Issue.record("expected hostValidationFailed, got \(String(describing: wrongHost))")
            return
        }
    }

    @Test func publicKeysMatchAndMismatch() async throws {
        let key = try #require(try Self.certificate("valid").publicKey)
        #expect(await post("valid", with: PublicKeysTrustEvaluator(keys: [key])) == nil)
        let pinned = try #require(PublicKey(pin: key.pin))
        #expect(await post("valid", with: PublicKeysTrustEvaluator(keys: [pinned])) == nil)
        // The root's key pins the whole chain too.
        let rootKey = try #require(try Self.testRootCA.publicKey)
        #expect(await post("intermediate", with: PublicKeysTrustEvaluator(keys: [rootKey])) == nil)
        let other = try #require(try Self.certificate("self-signed").publicKey)
        let error = await post("valid", with: PublicKeysTrustEvaluator(keys: [other]))
        guard case .serverTrustEvaluationFailed(.publicKeyPinningFailed) = error else {
            Issue.record("expected publicKeyPinningFailed, got \(String(describing: error))")
            return
        }
    }

    @Test func emptyPinsAreAnError() async throws {
        guard case .serverTrustEvaluationFailed(.noCertificatesFound) = await post("valid", with: PinnedCertificatesTrustEvaluator(certificates: [])) else {
            Issue.record("expected noCertificatesFound")
            return
        }
        guard case .serverTrustEvaluationFailed(.noPublicKeysFound) = await post("valid", with: PublicKeysTrustEvaluator(keys: [])) else {
            Issue.record("expected noPublicKeysFound")
            return
        }
    }

    @Test func aCompositeFailsOnItsFirstFailingEvaluator() async throws {
        let other = try #require(try Self.certificate("self-signed").publicKey)
        let composite = CompositeTrustEvaluator(evaluators: [DefaultTrustEvaluator(), PublicKeysTrustEvaluator(keys: [other])])
        guard case .serverTrustEvaluationFailed(.publicKeyPinningFailed) = await post("valid", with: composite) else {
            Issue.record("expected publicKeyPinningFailed")
            return
        }
        let key = try #require(try Self.certificate("valid").publicKey)
        #expect(await post("valid", with: CompositeTrustEvaluator(evaluators: [DefaultTrustEvaluator(), PublicKeysTrustEvaluator(keys: [key])])) == nil)
    }

    @Test func aRejectingSessionStillRejectsAfterAnotherSessionConnected() async throws {
        let accepting = session(DisabledTrustEvaluator())
        #expect(await accepting.request(Server.tls("self-signed")).serializingString().response.error == nil)
        #expect(defaultFailureDetail(await post("self-signed", with: DefaultTrustEvaluator())) != nil)
        // And again on the accepting session, which reuses its own connection.
        #expect(await accepting.request(Server.tls("self-signed")).serializingString().response.error == nil)
    }

    @Test func theManagerRefusesHostsWithoutAnEvaluator() async throws {
        let session = makeSession(serverTrustManager: ServerTrustManager(evaluators: ["example.com": DefaultTrustEvaluator()]))
        let response = await session.request(Server.tls("valid")).serializingString().response
        guard case .serverTrustEvaluationFailed(.noRequiredEvaluator(host: "localhost")) = response.error else {
            Issue.record("expected noRequiredEvaluator, got \(String(describing: response.error))")
            return
        }
        let lenient = makeSession(serverTrustManager: ServerTrustManager(allHostsMustBeEvaluated: false, evaluators: [:]))
        #expect(await lenient.request(Server.tls("valid")).serializingString().response.error == nil)
    }

    /// An upload refused before it connects closes the stream it was given.
    @Test func anUploadRefusedByTheManagerClosesItsStream() async throws {
        final class RecordingStream: InputStream {
            let closed = OneShot()
            override func close() {
                super.close()
                closed.fire()
            }
        }
        let session = makeSession(serverTrustManager: ServerTrustManager(evaluators: ["example.com": DefaultTrustEvaluator()]))
        let stream = RecordingStream(data: Data(repeating: 7, count: 1 << 20))
        let response = await session.upload(stream, to: Server.tls("valid")).serializingData().response
        #expect(response.error?.isServerTrustEvaluationError == true)
        await stream.closed.wait()
    }

    @Test func aSubclassCanChooseEvaluatorsItsOwnWay() async throws {
        final class AnyHostManager: ServerTrustManager, @unchecked Sendable {
            override func serverTrustEvaluator(forHost host: String) throws -> (any ServerTrustEvaluating)? {
                DisabledTrustEvaluator()
            }
        }
        let session = makeSession(serverTrustManager: AnyHostManager(evaluators: [:]))
        #expect(await session.request(Server.tls("self-signed")).serializingString().response.error == nil)
    }
}
