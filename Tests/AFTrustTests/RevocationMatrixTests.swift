import AFTestSupport
import AFTrust
import Foundation
import Testing

/// RevocationTrustEvaluator against the revocation cases of the loopback matrix
/// (Tests/Fixtures/tls_revocation.py): CRLs on nginx, `openssl ocsp` responders, stapling nginx.
@Suite(.timeLimit(.minutes(1))) struct RevocationMatrixTests {
    private func post(_ matrixCase: String, _ options: RevocationTrustEvaluator.Options,
                      sourceLocation: SourceLocation = #_sourceLocation) async -> AFError? {
        await MatrixProbe.post(matrixCase, with: RevocationTrustEvaluator(options: options), sourceLocation: sourceLocation)
    }

    /// The detail of a revocation failure, or nil (recording an issue) for anything else.
    private func revocationDetail(_ error: AFError?, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        guard case let .serverTrustEvaluationFailed(.revocationCheckFailed(output, _)) = error else {
            Issue.record("expected revocationCheckFailed, got \(String(describing: error))", sourceLocation: sourceLocation)
            return nil
        }
        #expect(output.host == "localhost", sourceLocation: sourceLocation)
        return output.detail
    }

    @Test(arguments: [RevocationTrustEvaluator.Options.crl, .ocsp, .any, [.any, .preferCRL],
                      [.any, .requirePositiveResponse], [.crl, .requirePositiveResponse],
                      [.ocsp, .requirePositiveResponse]])
    func aGoodChainIsAcceptedByEveryMethod(options: RevocationTrustEvaluator.Options) async {
        #expect(await post("rev-good", options) == nil)
    }

    @Test func aRevokedCertificateIsRejectedByCRLAndByOCSP() async throws {
        let byCRL = try #require(revocationDetail(await post("rev-revoked", .crl)))
        #expect(byCRL.contains("CN=localhost is revoked") && byCRL.contains("(CRL)"), "\(byCRL)")
        let byOCSP = try #require(revocationDetail(await post("rev-revoked", .ocsp)))
        #expect(byOCSP.contains("CN=localhost is revoked") && byOCSP.contains("(OCSP)"), "\(byOCSP)")
        let preferred = try #require(revocationDetail(await post("rev-revoked", [.any, .preferCRL])))
        #expect(preferred.contains("(CRL)"), "\(preferred)")
    }

    @Test func aMissingCRLFailsACRLOnlyCheckWithItsReason() async throws {
        let detail = try #require(revocationDetail(await post("rev-no-crl", .crl)))
        #expect(detail.contains("missing.crl") && detail.contains("404"), "\(detail)")
        #expect(await post("rev-no-crl", .ocsp) == nil)
        #expect(await post("rev-no-crl", .any) == nil)
    }

    @Test func anUnreachableResponderSoftFailsUnlessAPositiveAnswerIsRequired() async throws {
        #expect(await post("rev-ocsp-down", .ocsp) == nil)
        let detail = try #require(revocationDetail(await post("rev-ocsp-down", [.ocsp, .requirePositiveResponse])))
        #expect(detail.contains("OCSP unreachable"), "\(detail)")
        #expect(await post("rev-ocsp-down", [.any, .requirePositiveResponse]) == nil, "the CRL answers")
    }

    @Test func aStapledAnswerIsUsed() async throws {
        // Their responder is down and their CRL says good: only the stapled answer can tell.
        let detail = try #require(revocationDetail(await post("rev-stapled-revoked", .ocsp)))
        #expect(detail.contains("is revoked") && detail.contains("(OCSP)"), "\(detail)")
        #expect(await post("rev-stapled-revoked", .crl) == nil)
        #expect(await post("rev-stapled-good", [.ocsp, .requirePositiveResponse]) == nil)
    }

    @Test func withoutNetworkAccessOnlyStapledAnswersCount() async throws {
        #expect(await post("rev-revoked", [.any, .networkAccessDisabled]) == nil, "nothing fetched: soft fail")
        let detail = try #require(revocationDetail(await post("rev-revoked", [.any, .networkAccessDisabled, .requirePositiveResponse])))
        #expect(detail.contains("not asked yet"), "\(detail)")
        #expect(revocationDetail(await post("rev-stapled-revoked", [.ocsp, .networkAccessDisabled])) != nil)
    }

    @Test func aCertificateRevokedBetweenTwoConnectionsIsCaughtOnTheSecond() async throws {
        let revocable = try RevocableCertificate()
        try await revocable.setRevoked(false)
        let session = makeSession(serverTrustManager: ServerTrustManager(evaluators: [
            "localhost": RevocationTrustEvaluator(options: .ocsp),
        ]))
        // The server closes every connection after one request, so each request connects anew.
        #expect(await MatrixProbe.post("rev-revocable", on: session) == nil)
        try await revocable.setRevoked(true)
        let detail = try #require(revocationDetail(await MatrixProbe.post("rev-revocable", on: session)))
        #expect(detail.contains("is revoked"), "\(detail)")
        withExtendedLifetime(session) {}
    }
}
