import AFCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes

extension URLRequest {
    /// The request a generated client asked for, against `baseURL` (whose path prefixes the
    /// request's); fields of one name are joined as HTTP allows.
    init(_ request: HTTPRequest, baseURL: URL) throws {
        var base = baseURL.absoluteString
        if base.hasSuffix("/") { base.removeLast() }
        let address = base + (request.path ?? "")
        guard let url = URL(string: address) else { throw AFError.invalidURL(url: address) }
        self.init(url: url)
        httpMethod = request.method.rawValue
        var named = Set<HTTPField.Name>()
        for field in request.headerFields where named.insert(field.name).inserted {
            setValue(request.headerFields[field.name], forHTTPHeaderField: field.name.rawName)
        }
    }
}

extension HTTPResponse {
    /// The head AF received; fields whose names HTTP does not allow are left out. nil for a
    /// status code HTTP cannot carry (outside 0...999; one read back from a damaged cache file).
    init?(_ head: HTTPURLResponse) {
        guard (0...999).contains(head.statusCode) else { return nil }
        var fields = HTTPFields()
        for case let (name as String, value as String) in head.allHeaderFields {
            guard let name = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        self.init(status: .init(code: head.statusCode), headerFields: fields)
    }
}
