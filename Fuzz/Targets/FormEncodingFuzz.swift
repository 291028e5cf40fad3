import AFCore
import Foundation

/// Keys and values from the input (NUL-separated, alternating) encoded by `URLEncodedFormEncoder`
/// as a flat form and as one array; the output is read back as a server would (split at `&`
/// and `=`, percent-decoded). Checks: the same pairs come back, and the output holds only
/// characters that need no escaping in a query.
enum FormEncodingFuzz {
    static func run(_ input: Data) -> [String] {
        let strings = input.fuzzStrings(separatedBy: 0)
        var form: [String: String] = [:]
        for pair in stride(from: 0, to: strings.count - 1, by: 2) where !strings[pair].isEmpty {
            form[strings[pair]] = strings[pair + 1]
        }
        var problems: [String] = []
        let encoder = URLEncodedFormEncoder()
        if let encoded = try? encoder.encode(form) as String {
            problems += check(encoded)
            let decoded = read(encoded)
            if decoded.map({ "\($0)=\($1)" }).sorted() != form.map({ "\($0)=\($1)" }).sorted() {
                problems.append("form \(form) read back as \(decoded)")
            }
        } else if !form.isEmpty {
            problems.append("form \(form) not encoded")
        }
        let list = ["list": strings]
        // Alphabetized, an array's items are sorted too (as Alamofire's are): read back in
        // order only when the encoder keeps them as given.
        if let encoded = try? URLEncodedFormEncoder(alphabetizeKeyValuePairs: false).encode(list) as String {
            problems += check(encoded)
            let values = read(encoded).filter { $0.0 == "list[]" }.map(\.1)
            if values != strings { problems.append("list \(strings) read back as \(values)") }
        }
        return problems
    }

    /// The pairs of a query string, percent-decoded, in order.
    private static func read(_ query: String) -> [(String, String)] {
        guard !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.count > 1 ? String(parts[1]) : ""
            return (String(parts[0]).removingPercentEncoding ?? "<bad escape>", value.removingPercentEncoding ?? "<bad escape>")
        }
    }

    private static let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~%&=?/".utf8)

    private static func check(_ encoded: String) -> [String] {
        encoded.utf8.allSatisfy(allowed.contains) ? [] : ["unescaped characters in \(encoded.debugDescription)"]
    }
}
