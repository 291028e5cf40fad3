import CCurlShim
import Foundation

/// OpenSSL's verification of the chain against the trusted CAs, and the host name.
public final class DefaultTrustEvaluator: ServerTrustEvaluating {
    private let validateHost: Bool

    /// Creates an evaluator; `validateHost` checks the leaf certificate against the host.
    public init(validateHost: Bool = true) {
        self.validateHost = validateHost
    }

    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        try TrustChecks.defaultValidation(trust, host: host)
        if validateHost { try TrustChecks.hostValidation(trust, host: host) }
    }
}

/// Accepts every server. For development against servers with throwaway certificates only.
public final class DisabledTrustEvaluator: ServerTrustEvaluating {
    /// An evaluator that accepts everything.
    public init() {}
    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {}
}

/// Runs evaluators in order; the first failure rejects.
public final class CompositeTrustEvaluator: ServerTrustEvaluating {
    private let evaluators: [any ServerTrustEvaluating]

    /// An evaluator running `evaluators` in order.
    public init(evaluators: [any ServerTrustEvaluating]) {
        self.evaluators = evaluators
    }

    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        try evaluators.forEach { try $0.evaluate(trust, forHost: host) }
    }
}

/// Accepts a chain that contains one of the pinned certificates (any certificate of the
/// verified chain, not only the leaf).
public final class PinnedCertificatesTrustEvaluator: ServerTrustEvaluating {
    private let certificates: [Certificate]
    private let acceptSelfSignedCertificates: Bool
    private let performDefaultValidation: Bool
    private let validateHost: Bool

    /// Creates an evaluator. `acceptSelfSignedCertificates` lets the pinned certificates act
    /// as trust anchors in the default validation.
    public init(certificates: [Certificate] = Bundle.main.af.certificates,
                acceptSelfSignedCertificates: Bool = false,
                performDefaultValidation: Bool = true,
                validateHost: Bool = true) {
        self.certificates = certificates
        self.acceptSelfSignedCertificates = acceptSelfSignedCertificates
        self.performDefaultValidation = performDefaultValidation
        self.validateHost = validateHost
    }

    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        guard !certificates.isEmpty else {
            throw AFError.serverTrustEvaluationFailed(reason: .noCertificatesFound)
        }
        // With self-signed certificates accepted, the pinned certificates are the anchors: a chain
        // OpenSSL did not trust must lead to one of them, which pins it.
        var anchoredInPins = false
        if acceptSelfSignedCertificates {
            anchoredInPins = try TrustChecks.validation(trust, host: host, anchors: certificates)
        } else if performDefaultValidation {
            try TrustChecks.defaultValidation(trust, host: host)
        }
        if validateHost { try TrustChecks.hostValidation(trust, host: host) }
        let pinned = Set(certificates.map(\.derData))
        guard anchoredInPins || trust.certificateData.contains(where: pinned.contains) else {
            throw AFError.serverTrustEvaluationFailed(reason: .certificatePinningFailed(
                host: host, trust: trust, pinnedCertificates: certificates.map(\.derData),
                serverCertificates: trust.certificateData))
        }
    }
}

/// Accepts a chain where one certificate's public key is one of the pinned keys.
public final class PublicKeysTrustEvaluator: ServerTrustEvaluating {
    private let keys: [PublicKey]
    private let performDefaultValidation: Bool
    private let validateHost: Bool

    /// Creates an evaluator; keys may come from certificates or from `sha256/<base64>` pins.
    public init(keys: [PublicKey] = Bundle.main.af.publicKeys,
                performDefaultValidation: Bool = true,
                validateHost: Bool = true) {
        self.keys = keys
        self.performDefaultValidation = performDefaultValidation
        self.validateHost = validateHost
    }

    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        guard !keys.isEmpty else {
            throw AFError.serverTrustEvaluationFailed(reason: .noPublicKeysFound)
        }
        if performDefaultValidation { try TrustChecks.defaultValidation(trust, host: host) }
        if validateHost { try TrustChecks.hostValidation(trust, host: host) }
        let serverKeys = trust.certificates.compactMap(\.publicKey)
        let pinned = Set(keys)
        guard serverKeys.contains(where: pinned.contains) else {
            throw AFError.serverTrustEvaluationFailed(reason: .publicKeyPinningFailed(
                host: host, trust: trust, pinnedKeys: keys.map(\.sha256), serverKeys: serverKeys.map(\.sha256)))
        }
    }
}

/// The checks evaluators share.
enum TrustChecks {
    static func defaultValidation(_ trust: ServerTrust, host: String) throws {
        guard trust.defaultEvaluationSucceeded else {
            throw AFError.serverTrustEvaluationFailed(reason: .defaultEvaluationFailed(
                output: .init(host: host, trust: trust, detail: trust.defaultEvaluationError ?? "the chain is not trusted")))
        }
    }

    static func hostValidation(_ trust: ServerTrust, host: String) throws {
        guard let leaf = trust.certificates.first, leaf.isValid(forHost: host) else {
            throw AFError.serverTrustEvaluationFailed(reason: .hostValidationFailed(
                output: .init(host: host, trust: trust, detail: "the certificate is not valid for \(host)")))
        }
    }

    /// Accepts a chain OpenSSL trusted, else verifies it again with `anchors` as the only trust
    /// anchors; true when it was the anchors that verified it.
    static func validation(_ trust: ServerTrust, host: String, anchors: [Certificate]) throws -> Bool {
        if trust.defaultEvaluationSucceeded { return false }
        let result = ChainVerifier.verify(trust.certificateData, anchors: anchors.map(\.derData))
        guard result.verified else {
            throw AFError.serverTrustEvaluationFailed(reason: .defaultEvaluationFailed(
                output: .init(host: host, trust: trust, detail: result.error)))
        }
        return true
    }
}
