import AFCore
import Foundation

/// How an entry's header fields are kept in the database: JSON arrays of name-value pairs.
enum EntryCoding {
    static func encode(_ headers: HTTPHeaders) -> Data {
        encode(headers.map { [$0.name, $0.value] })
    }

    static func encode(_ varying: [String: String]) -> Data {
        encode(varying.sorted { $0.key < $1.key }.map { [$0.key, $0.value] })
    }

    static func headers(_ data: Data) -> HTTPHeaders {
        HTTPHeaders(pairs(data).map { HTTPHeader(name: $0[0], value: $0[1]) })
    }

    static func varying(_ data: Data) -> [String: String] {
        Dictionary(pairs(data).map { ($0[0], $0[1]) }) { first, _ in first }
    }

    /// The variant's identity among those of its URL: the varying request fields, in order.
    static func variantKey(_ varying: [String: String]) -> String {
        varying.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n")
    }

    private static func encode(_ pairs: [[String]]) -> Data {
        (try? JSONSerialization.data(withJSONObject: pairs)) ?? Data("[]".utf8)
    }

    private static func pairs(_ data: Data) -> [[String]] {
        ((try? JSONSerialization.jsonObject(with: data)) as? [[String]] ?? []).filter { $0.count == 2 }
    }
}
