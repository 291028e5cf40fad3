import AFCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A stored response and a request made from the input's lines (`> Name: value` for the
/// request, `Name: value` for the response; the first byte sets the response's age), decided on
/// under the default policy. Checks the rules no field combination may bend: a request or
/// response with `no-cache`, a request with `no-store`, and a response with `Vary: *` are never
/// answered from the cache without asking the origin; an age is never negative.
enum CacheDecisionFuzz {
    static let now = Date(timeIntervalSince1970: 1_780_000_000)

    static func run(_ input: Data) -> [String] {
        var request = URLRequest(url: URL(string: "http://fuzz.test/resource")!)
        var responseHeaders = HTTPHeaders()
        for line in input.dropFirst().fuzzStrings(separatedBy: UInt8(ascii: "\n")) {
            let isRequest = line.hasPrefix(">")
            let field = isRequest ? line.dropFirst() : Substring(line)
            guard let colon = field.firstIndex(of: ":") else { continue }
            let name = field[..<colon].trimmingCharacters(in: .whitespaces)
            let value = field[field.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { continue }
            if isRequest { request.addValue(value, forHTTPHeaderField: name) } else { responseHeaders.add(name: name, value: value) }
        }
        let age = TimeInterval(input.first ?? 0) * 37
        let varying = Dictionary(CacheLookup.varyNames(responseHeaders).map { ($0.lowercased(), request.value(forHTTPHeaderField: $0) ?? "") }) { first, _ in first }
        let entry = HTTPCacheEntry(url: request.url!, statusCode: 200, headers: responseHeaders, body: Data(),
                                   varyingRequestHeaders: varying.filter { !$0.value.isEmpty },
                                   requestDate: now - age, responseDate: now - age)
        let decision = CacheLookup.decide(CacheRequestFields(request), policy: .useProtocolCachePolicy, entries: [entry], now: now)
        guard case let .useStored(_, servedAge) = decision else { return [] }
        var problems: [String] = []
        let requestDirectives = directiveNames(request.value(forHTTPHeaderField: "Cache-Control"))
        let responseDirectives = directiveNames(responseHeaders.value(for: "Cache-Control"))
        if requestDirectives.contains("no-cache") { problems.append("used stored despite request no-cache") }
        if requestDirectives.contains("no-store") { problems.append("used stored despite request no-store") }
        if responseDirectives.contains("no-cache") { problems.append("used stored despite response no-cache") }
        if CacheLookup.varyNames(responseHeaders).contains("*") { problems.append("used stored despite Vary: *") }
        if servedAge < 0 { problems.append("age \(servedAge)") }
        return problems
    }

    /// The lower-cased directive names of a Cache-Control value, read here independently of
    /// `CacheControl`: split on commas outside quotes (scalars, not characters: a quote followed
    /// by a combining mark is still a quote), each name before its `=`.
    private static func directiveNames(_ header: String?) -> Set<String> {
        var names: Set<String> = [], part = String.UnicodeScalarView(), quoted = false
        for scalar in ((header ?? "") + ",").unicodeScalars {
            if scalar == "\"" { quoted.toggle() }
            if scalar == ",", !quoted {
                let name = String(part).split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                names.insert(name.trimmingCharacters(in: CharacterSet(charactersIn: " \t")).lowercased())
                part = String.UnicodeScalarView()
            } else {
                part.append(scalar)
            }
        }
        return names
    }
}
