import Foundation

/// The proxy each scheme goes through: from the configuration's `connectionProxyDictionary` when
/// it names one, otherwise from the variables curl users know (`http_proxy`, `HTTPS_PROXY`,
/// `ALL_PROXY`, `NO_PROXY`). Read once per Session; an empty proxy means a direct connection.
struct ProxySettings: Sendable, Equatable {
    var http = ""
    var https = ""
    /// Hosts reached directly, comma-separated, in curl's `NO_PROXY` syntax.
    var noProxy: String?

    /// The keys AF keeps its own settings under in `connectionProxyDictionary` (the only
    /// dictionary a configuration carries across copies): they say nothing about proxies.
    static let afKeys: Set<String> = [URLSessionConfiguration.waitsForConnectivityKey, UnixSocketRoute.configurationKey]

    init(dictionary: [AnyHashable: Any]?, environment: [String: String]) {
        let dictionary = dictionary?.filter { key, _ in !Self.afKeys.contains(key as? String ?? "") }
        if let dictionary, !dictionary.isEmpty {
            http = Self.proxy(in: dictionary, prefix: "HTTP")
            https = Self.proxy(in: dictionary, prefix: "HTTPS")
            if let exceptions = dictionary["ExceptionsList"] as? [String], !exceptions.isEmpty {
                noProxy = exceptions.joined(separator: ",")
            }
            return
        }
        func variable(_ names: String...) -> String? {
            names.lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        }
        let all = variable("all_proxy", "ALL_PROXY")
        // Upper-case HTTP_PROXY is ignored, as curl does: CGI servers set it from a request header.
        http = variable("http_proxy") ?? all ?? ""
        https = variable("https_proxy", "HTTPS_PROXY") ?? all ?? ""
        noProxy = variable("no_proxy", "NO_PROXY")
    }

    /// The proxy URL for a request of `scheme`, or "" for none.
    func proxy(forScheme scheme: String?) -> String {
        scheme?.equalsIgnoringASCIICase("https") == true ? https : http
    }

    /// Reads Apple's `<prefix>Enable`, `<prefix>Proxy` and `<prefix>Port` keys (an HTTP proxy,
    /// which tunnels HTTPS with CONNECT).
    private static func proxy(in dictionary: [AnyHashable: Any], prefix: String) -> String {
        let enabled = (dictionary["\(prefix)Enable"] as? NSNumber)?.boolValue
            ?? (dictionary["\(prefix)Enable"] as? Bool) ?? false
        guard enabled, let host = dictionary["\(prefix)Proxy"] as? String, !host.isEmpty else { return "" }
        let port = (dictionary["\(prefix)Port"] as? NSNumber)?.intValue ?? (dictionary["\(prefix)Port"] as? Int)
        return port.map { "http://\(host):\($0)" } ?? "http://\(host)"
    }
}
