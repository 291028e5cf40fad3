import AFTestSupport
@testable import AFTrust
import Foundation
import Testing

/// Pins with default validation off are checked against the chain built from the server's leaf by
/// verified signatures, never against whatever certificates the server appended (the
/// CVE-2016-2402 bypass): the attacker's cases of Tests/Fixtures/tls_matrix.py.
@Suite(.timeLimit(.minutes(1))) struct PinnedChainTests {
    private func pinned(_ certificates: [Certificate]) -> PinnedCertificatesTrustEvaluator {
        PinnedCertificatesTrustEvaluator(certificates: certificates, performDefaultValidation: false)
    }

    private func keys(_ keys: [PublicKey]) -> PublicKeysTrustEvaluator {
        PublicKeysTrustEvaluator(keys: keys, performDefaultValidation: false)
    }

    private func expectCertificatePinningFailed(_ error: AFError?, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .serverTrustEvaluationFailed(.certificatePinningFailed) = error else {
            Issue.record("expected certificatePinningFailed, got \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
    }

    private func expectPublicKeyPinningFailed(_ error: AFError?, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .serverTrustEvaluationFailed(.publicKeyPinningFailed) = error else {
            Issue.record("expected publicKeyPinningFailed, got \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
    }

    @Test func anAppendedRealLeafDoesNotMatchItsPin() async throws {
        let realLeaf = try TrustMatrixTests.certificate("valid")
        expectCertificatePinningFailed(await MatrixProbe.post("appended-leaf", with: pinned([realLeaf])))
    }

    @Test func anAppendedRealIntermediateDoesNotMatchItsPin() async throws {
        // The forged leaf names the real intermediate as its issuer; only the signature tells them apart.
        let intermediate = try TrustMatrixTests.certificate("intermediate-ca")
        expectCertificatePinningFailed(await MatrixProbe.post("forged-intermediate", with: pinned([intermediate])))
    }

    @Test func anAppendedCertificateCarryingThePinnedKeyDoesNotMatch() async throws {
        let leafKey = try #require(try TrustMatrixTests.certificate("valid").publicKey)
        expectPublicKeyPinningFailed(await MatrixProbe.post("appended-leaf", with: keys([leafKey])))
        let intermediateKey = try #require(try TrustMatrixTests.certificate("intermediate-ca").publicKey)
        expectPublicKeyPinningFailed(await MatrixProbe.post("forged-intermediate", with: keys([intermediateKey])))
    }

    @Test func theAttackersOwnLeafIsWhatTheEvaluatorSees() async throws {
        let attacker = try TrustMatrixTests.certificate("attacker")
        #expect(await MatrixProbe.post("appended-leaf", with: pinned([attacker])) == nil)
    }

    @Test func anUntrustedChainIsBuiltThroughTheIntermediatesItsLeafNames() async throws {
        // Nothing trusts AF Internal CA, so the chain is the signature-built one: leaf, intermediate.
        let intermediate = try TrustMatrixTests.certificate("internal-intermediate")
        #expect(await MatrixProbe.post("internal-chain", with: pinned([intermediate])) == nil)
        let key = try #require(intermediate.publicKey)
        #expect(await MatrixProbe.post("internal-chain", with: keys([key])) == nil)
    }
}
