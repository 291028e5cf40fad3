import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLProtocol` subclasses of a configuration's `protocolClasses` that serve requests in
/// curl's place (a stub, a recorder, a proxy of the app's), in the configuration's order.
/// FoundationNetworking's own classes are left out: curl is AF's HTTP, file and data loader.
struct ProtocolClasses: @unchecked Sendable {
    let classes: [URLProtocol.Type]

    init(_ configured: [AnyClass]?) {
        classes = (configured ?? []).compactMap { $0 as? URLProtocol.Type }
            .filter { !String(reflecting: $0).hasPrefix("FoundationNetworking.") }
    }

    /// The first class that accepts `request`, if any.
    func serving(_ request: URLRequest) -> URLProtocol.Type? {
        guard !classes.isEmpty else { return nil }
        return classes.first { $0.canInit(with: request) }
    }
}
