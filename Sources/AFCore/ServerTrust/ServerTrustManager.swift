import Foundation

/// Chooses the trust evaluator of each host, by exact host name: what `Session(serverTrustManager:)`
/// takes. Subclass it to match hosts another way. AFTrust has the evaluators.
open class ServerTrustManager: @unchecked Sendable {
    /// Whether a host without an evaluator is refused (`noRequiredEvaluator`) rather than left
    /// to OpenSSL's default verification.
    public let allHostsMustBeEvaluated: Bool
    /// The evaluators, by host.
    public let evaluators: [String: any ServerTrustEvaluating]

    /// Creates a manager; by default every host must have an evaluator.
    public init(allHostsMustBeEvaluated: Bool = true, evaluators: [String: any ServerTrustEvaluating]) {
        self.allHostsMustBeEvaluated = allHostsMustBeEvaluated
        self.evaluators = evaluators
    }

    /// The evaluator for `host`; override to match hosts another way (wildcards, suffixes).
    open func serverTrustEvaluator(forHost host: String) throws -> (any ServerTrustEvaluating)? {
        if let evaluator = evaluators[host] { return evaluator }
        if allHostsMustBeEvaluated {
            throw AFError.serverTrustEvaluationFailed(reason: .noRequiredEvaluator(host: host))
        }
        return nil
    }
}
