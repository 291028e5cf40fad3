import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension AlamofireExtension where ExtendedType: URLSessionConfiguration {
    /// URLSession's `waitsForConnectivity`, which FoundationNetworking leaves read-only and
    /// false: when true, a request that finds no usable network path waits for the host's network
    /// to change (up to the configuration's `timeoutIntervalForResource`, or the request's
    /// deadline) and then goes out, instead of failing with `URLError.notConnectedToInternet`.
    /// Event monitors hear `urlSession(_:taskIsWaitingForConnectivity:)` when a task starts
    /// waiting. Needs a Session that follows the network (the default). False by default.
    public var waitsForConnectivity: Bool {
        get { type.connectionProxyDictionary?[URLSessionConfiguration.waitsForConnectivityKey] as? Bool ?? false }
        nonmutating set {
            var dictionary = type.connectionProxyDictionary ?? [:]
            dictionary[URLSessionConfiguration.waitsForConnectivityKey] = newValue ? true : nil
            type.connectionProxyDictionary = dictionary
        }
    }
}

extension URLSessionConfiguration {
    /// Where `af.waitsForConnectivity` is kept: the dictionary is copied with the configuration.
    static let waitsForConnectivityKey = "AFWaitsForConnectivity"
}
