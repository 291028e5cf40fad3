@testable import AFCore
import AFTestSupport
import Foundation
import Testing

@Suite("Response head parsing")
struct ResponseHeadParserTests {
    private func parse(_ lines: [String]) -> ResponseHead? {
        var parser = ResponseHeadParser()
        var completed: ResponseHead?
        for line in lines {
            var bytes = Array(line.utf8)
            let done = bytes.withUnsafeMutableBufferPointer { parser.consume(UnsafeBufferPointer($0)) }
            if done { completed = parser.completed }
        }
        return completed
    }

    @Test func statusLineAndTrimmedValues() throws {
        let head = try #require(parse(["HTTP/1.1 201 Created\r\n", "Content-Type: \t text/plain \r\n",
                                       "X-Empty:\r\n", "\r\n"]))
        #expect(head.statusCode == 201)
        #expect(head.httpVersion == "HTTP/1.1")
        #expect(head.value(for: "content-type") == "text/plain")
        #expect(head.value(for: "X-EMPTY") == "")
        #expect(head.value(for: "Missing") == nil)
    }

    @Test func presenceAndDecimalValuesAreReadOverTheBytes() throws {
        let head = try #require(parse(["HTTP/1.1 200 OK\r\n", "content-length: 1234\r\n", "X-Empty:\r\n",
                                       "X-Signed: +5\r\n", "X-Large: 99999999999999999999\r\n", "X-Spaced: 1 2\r\n", "\r\n"]))
        #expect(head.contains("Content-Length"))
        #expect(head.contains("x-empty"))
        #expect(!head.contains("Location"))
        #expect(head.decimal(for: "Content-Length") == 1234)
        #expect(head.decimal(for: "X-Empty") == nil)
        #expect(head.decimal(for: "X-Signed") == nil)
        #expect(head.decimal(for: "X-Large") == nil)
        #expect(head.decimal(for: "X-Spaced") == nil)
        #expect(head.decimal(for: "Missing") == nil)
    }

    @Test func fieldsOfAnyLengthKeepTheirOrderAndValues() throws {
        let long = String(repeating: "v", count: 70_000)
        let head = try #require(parse(["HTTP/1.1 200 OK\r\n", "A:\r\n", "X-Long: \(long)\r\n",
                                       "Content-Length: 5\r\n", ": nameless\r\n", "Last: end\r\n", "\r\n"]))
        #expect(head.headers.map(\.name) == ["A", "X-Long", "Content-Length", "", "Last"])
        #expect(head.headers.map(\.value) == ["", long, "5", "nameless", "end"])
        #expect(head.value(for: "x-long") == long)
        #expect(head.decimal(for: "content-length") == 5)
        #expect(head.value(for: "last") == "end")
        #expect(head.value(for: "Las") == nil)
        #expect(head.headerFields == ["A": "", "X-Long": long, "Content-Length": "5", "": "nameless", "Last": "end"])
    }

    @Test(arguments: [
        ("HTTP/1.1 404 Not Found\r\n", 404, "HTTP/1.1"),
        ("HTTP/2 204\r\n", 204, "HTTP/2"),
        ("HTTP/1.0  302   Found  \r\n", 302, "HTTP/1.0"),
        ("HTTP/1.1 599 Some reason with spaces\r\n", 599, "HTTP/1.1"),
    ])
    func statusLines(line: String, code: Int, version: String) throws {
        let head = try #require(parse([line, "\r\n"]))
        #expect(head.statusCode == code)
        #expect(head.httpVersion == version)
    }

    @Test(arguments: ["HTTP/1.1\r\n", "HTTP/1.1 OK\r\n", "HTTP/1.1 20x OK\r\n", "HTTP/1.1 -200 OK\r\n",
                      "HTTP/1.1 9999999999 OK\r\n", "HTTP/2 1000 X\r\n", "HTTP/1.1 20 OK\r\n"])
    func statusLinesWithoutAThreeDigitCodeGiveNoHead(line: String) {
        #expect(parse([line, "A: 1\r\n", "\r\n"]) == nil)
    }

    @Test func informationalHeadsAreSkipped() throws {
        let head = try #require(parse(["HTTP/1.1 100 Continue\r\n", "\r\n",
                                       "HTTP/1.1 200 OK\r\n", "A: 1\r\n", "\r\n"]))
        #expect(head.statusCode == 200)
        #expect(head.headers.count == 1)
    }

    @Test func repeatedFieldsJoinUnderTheFirstSpelling() throws {
        let head = try #require(parse(["HTTP/2 200\r\n", "Vary: Accept\r\n", "vary: Origin\r\n", "\r\n"]))
        #expect(head.headerFields == ["Vary": "Accept, Origin"])
        #expect(head.value(for: "vary") == "Accept")
    }

    @Test func manyFieldsJoinTheSameWayAsFew() throws {
        var lines = ["HTTP/1.1 200 OK\r\n"]
        lines += (0..<40).map { "X-Field-\($0): \($0)\r\n" }
        lines += ["Set-Cookie: a=1\r\n", "SET-COOKIE: b=2\r\n", "\r\n"]
        let head = try #require(parse(lines))
        let fields = head.headerFields
        #expect(fields.count == 41)
        #expect(fields["Set-Cookie"] == "a=1, b=2")
        #expect(fields["X-Field-39"] == "39")
    }

    @Test func asciiCaseInsensitiveEquality() {
        #expect("Content-Length".equalsIgnoringASCIICase("content-LENGTH"))
        #expect(!"Content-Length".equalsIgnoringASCIICase("Content-Lengt"))
        // '@' (0x40) and '`' (0x60) differ only in the case bit but are not letters.
        #expect(!"a@".equalsIgnoringASCIICase("a`"))
        #expect("".equalsIgnoringASCIICase(""))
        // Only ASCII letters fold; other bytes must match exactly.
        #expect("X-Ünï".equalsIgnoringASCIICase("x-Ünï"))
        #expect(!"é".equalsIgnoringASCIICase("É"))
    }
}
