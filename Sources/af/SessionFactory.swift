import AFCache
import AFCore
import AFReachability
import AFTrust
import Foundation

/// The Session the options call for: cache, pins, retries, waiting for the network, HTTP versions.
enum SessionFactory {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func session(for invocation: Invocation, host: String) throws -> Session {
        let configuration = URLSessionConfiguration.af.default
        if let timeout = invocation.timeout { configuration.timeoutIntervalForRequest = timeout }
        if let path = invocation.cache {
            do {
                configuration.urlCache = try SQLiteURLCache(fileURL: URL(fileURLWithPath: path))
            } catch {
                throw Failure(description: "cannot open the cache \(path): \(error)")
            }
        }
        var retriers: [any RequestRetrier] = []
        if let seconds = invocation.waitForNetwork {
            guard let monitor = NetworkReachabilityManager(host: host) else {
                throw Failure(description: "--wait-for-network: the kernel's routing information (netlink) is not available")
            }
            retriers.append(OfflineRetrier(monitor: monitor, maximumWait: .milliseconds(Int(seconds * 1000))))
        }
        if invocation.retries > 0 { retriers.append(RetryPolicy(retryLimit: UInt(invocation.retries))) }
        var trust: ServerTrustManager?
        if !invocation.pins.isEmpty {
            let keys = try invocation.pins.map { pin -> PublicKey in
                guard let key = PublicKey(pin: pin) else { throw Failure(description: "not a pin: \(pin) (sha256/<base64>)") }
                return key
            }
            trust = ServerTrustManager(evaluators: [host: PublicKeysTrustEvaluator(keys: keys)])
        }
        let versions: HTTPVersionPolicy = invocation.http2 ? .http2PriorKnowledge : invocation.http1 ? .http1Only : .automatic
        return Session(configuration: configuration, interceptor: retriers.isEmpty ? nil : Interceptor(retriers: retriers),
                       serverTrustManager: trust, httpVersionPolicy: versions)
    }
}
