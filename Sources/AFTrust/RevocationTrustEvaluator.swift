import AFCore
import Foundation

/// Checks that no certificate of the chain is revoked, by CRL and OCSP (stapled, or asked of the
/// certificate's responder), after the default validation.
///
/// Every certificate but the trusted root is checked against its issuer. A certificate is good
/// when one enabled method says so, and rejected when one says it is revoked. When no method can
/// answer (no CRL or responder named, server unreachable, answer unusable), the check fails if
/// `.requirePositiveResponse` is set or CRLs are the only method (a CRL is then needed for every
/// CA of the chain); otherwise it passes (soft fail, as browsers do). Answers are fetched off the
/// engine thread: a handshake that needs one is closed and retried once the answer is in.
public final class RevocationTrustEvaluator: ServerTrustEvaluating {
    /// How revocation is checked (`RevocationCheckOptions`, in AFCore so that
    /// `AFError`'s `revocationCheckFailed(output:options:)` can carry it).
    public typealias Options = RevocationCheckOptions

    private let performDefaultValidation: Bool
    private let validateHost: Bool
    private let options: Options
    private let cache = RevocationCache()

    /// Creates an evaluator; with `performDefaultValidation` the chain must first be trusted, with
    /// `validateHost` the leaf must match the host.
    public init(performDefaultValidation: Bool = true, validateHost: Bool = true, options: Options = .any) {
        self.performDefaultValidation = performDefaultValidation
        self.validateHost = validateHost
        self.options = options
    }

    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        if performDefaultValidation { try TrustChecks.defaultValidation(trust, host: host) }
        if validateHost { try TrustChecks.hostValidation(trust, host: host) }
        guard options.contains(.crl) || options.contains(.ocsp) else {
            throw failure(trust, host, "no revocation method (CRL or OCSP) is enabled")
        }
        let chain = trust.certificateData
        var toFetch = Set<RevocationFetch>()
        var undecided: [String] = []
        for index in chain.indices.dropLast() {
            let check = RevocationCheck(certificate: chain[index], issuer: chain[index + 1],
                                        staple: index == 0 ? trust.stapledOCSPResponse : nil, cache: cache)
            switch check.status(methods: methods) {
            case .good:
                continue
            case let .revoked(detail):
                throw failure(trust, host, "\(RevocationSources.subject(of: chain[index])) is revoked: \(detail)")
            case let .undecided(reasons, fetches):
                toFetch.formUnion(fetches)
                let subject = RevocationSources.subject(of: chain[index])
                undecided.append("\(subject): " + reasons.joined(separator: "; "))
            }
        }
        if !toFetch.isEmpty, !options.contains(.networkAccessDisabled) {
            throw ServerTrustEvaluationPending { [cache, toFetch] in cache.fetch(toFetch) }
        }
        if !undecided.isEmpty, options.contains(.requirePositiveResponse) || !options.contains(.ocsp) {
            throw failure(trust, host, "no positive revocation answer for " + undecided.joined(separator: " | "))
        }
        if performDefaultValidation, chain.count < 2, options.contains(.requirePositiveResponse) {
            throw failure(trust, host, "the chain has no issuer to ask about its certificate")
        }
    }

    private var methods: [RevocationCheck.Method] {
        var methods: [RevocationCheck.Method] = []
        if options.contains(.ocsp) { methods.append(.ocsp) }
        if options.contains(.crl) { methods.insert(.crl, at: options.contains(.preferCRL) ? 0 : methods.count) }
        return methods
    }

    private func failure(_ trust: ServerTrust, _ host: String, _ detail: String) -> AFError {
        .serverTrustEvaluationFailed(reason: .revocationCheckFailed(output: .init(host: host, trust: trust, detail: detail), options: options))
    }
}
