import AFCore
import Foundation

/// Feeds the input to the response head parser line by line (each line as curl hands it over,
/// with its line break), then an empty line; checks that a completed head answers for its own
/// fields and makes a response.
enum ResponseHeadFuzz {
    static func run(_ input: Data) -> [String] {
        var parser = ResponseHeadParser()
        var lines = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Array($0) + [0x0A] }
        lines.append([0x0D, 0x0A])
        for line in lines {
            _ = line.withUnsafeBufferPointer { parser.consume($0) }
        }
        guard let head = parser.completed else { return [] }
        var problems: [String] = []
        if head.statusCode < 0 || head.statusCode >= 1_000_000_000 { problems.append("status code \(head.statusCode)") }
        let fields = head.headerFields
        for (name, _) in head.headers where name.utf8.allSatisfy({ $0 < 0x80 }) {
            if head.value(for: name) == nil { problems.append("field \(name.debugDescription) not found by its own name") }
            if !fields.keys.contains(where: { $0.lowercased() == name.lowercased() }) {
                problems.append("field \(name.debugDescription) missing from headerFields")
            }
        }
        _ = head.httpResponse(for: URL(string: "http://fuzz.test/")!)?.allHeaderFields.count
        return problems
    }
}
