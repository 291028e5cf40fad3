import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension TaskConfiguration {
    /// The credential the configuration's `urlCredentialStorage` holds for `request`'s server, as
    /// URLSession answers a Basic or Digest challenge with it: the default credential of the
    /// protection spaces of the request's scheme, host and port. None when the request carries
    /// its own `Authorization`, or when spaces of several realms there hold different ones (the
    /// challenge's realm is not known before it comes).
    func storedCredential(for request: URLRequest) -> HTTPCredential? {
        // The store is asked first: usually empty, and cheaper to ask than the URL's host to parse.
        guard let storage = credentialStorage, case let all = storage.allCredentials, !all.isEmpty,
              let url = request.url, let host = url.host, let scheme = url.scheme,
              request.value(forHTTPHeaderField: "Authorization") == nil else { return nil }
        let port = url.port ?? (scheme.lowercased() == "https" ? 443 : 80)
        let methods: Set<String> = [NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodHTTPDigest,
                                    NSURLAuthenticationMethodDefault]
        let found = Set(all.keys.lazy
            .filter { space in
                space.host.lowercased() == host.lowercased() && space.port == port
                    && space.protocol?.lowercased() == scheme.lowercased() && methods.contains(space.authenticationMethod)
                    && space.proxyType == nil
            }
            .compactMap { storage.defaultCredential(for: $0).flatMap(HTTPCredential.init) })
        return found.count == 1 ? found.first : nil
    }
}
