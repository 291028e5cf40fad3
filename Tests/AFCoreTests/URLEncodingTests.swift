@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@Suite struct URLEncodingTests {
    let request = URLRequest(url: URL(string: "https://example.com/")!)

    private func query(_ parameters: Parameters, _ encoding: URLEncoding = .default) throws -> String? {
        try encoding.encode(request, with: parameters).url?.query
    }

    @Test func anEncodingFitsTheInlineStorageOfAnExistential() {
        // `request(_:method:parameters:encoding:…)` passes one as `any ParameterEncoding` (the
        // default when none is given): larger than three words, it would be boxed on the heap.
        #expect(MemoryLayout<URLEncoding>.size <= 3 * MemoryLayout<Int>.size)
    }

    @Test func sortsKeysAndEscapes() throws {
        #expect(try query(["b": "2", "a": "1 & 3"]) == "a=1%20%26%203&b=2")
    }

    @Test func keepsQuestionMarkAndSlashUnescaped() throws {
        #expect(try query(["path": "a/b?c"]) == "path=a/b?c")
    }

    @Test func arrayEncodings() throws {
        #expect(try query(["a": [1, 2]]) == "a%5B%5D=1&a%5B%5D=2")
        #expect(try query(["a": [1, 2]], URLEncoding(arrayEncoding: .noBrackets)) == "a=1&a=2")
        #expect(try query(["a": [1, 2]], URLEncoding(arrayEncoding: .indexInBrackets)) == "a%5B0%5D=1&a%5B1%5D=2")
        let custom = URLEncoding(arrayEncoding: .custom { key, index in "\(key).\(index)" })
        #expect(try query(["a": [1, 2]], custom) == "a.0=1&a.1=2")
    }

    @Test func boolEncodings() throws {
        #expect(try query(["t": true, "f": false]) == "f=0&t=1")
        #expect(try query(["t": true], URLEncoding(boolEncoding: .literal)) == "t=true")
    }

    @Test func literalBoolsLeaveNumbersAlone() throws {
        let parameters: Parameters = ["a": 1, "b": 0.0, "c": 2.5, "d": NSNumber(value: 1), "e": NSNumber(value: 1.0),
                                      "f": true, "g": NSNumber(value: false)]
        #expect(try query(parameters, URLEncoding(boolEncoding: .literal)) == "a=1&b=0&c=2.5&d=1&e=1&f=true&g=false")
        #expect(try query(parameters) == "a=1&b=0&c=2.5&d=1&e=1&f=1&g=0")
    }

    @Test func nestedDictionaries() throws {
        #expect(try query(["user": ["name": "x", "age": 3] as Parameters]) == "user%5Bage%5D=3&user%5Bname%5D=x")
    }

    @Test func appendsToExistingQuery() throws {
        let existing = URLRequest(url: URL(string: "https://example.com/?z=9")!)
        #expect(try URLEncoding.default.encode(existing, with: ["a": 1]).url?.query == "z=9&a=1")
    }

    @Test func methodDependentDestination() throws {
        var post = request
        post.method = .post
        let encoded = try URLEncoding.default.encode(post, with: ["a": 1])
        #expect(encoded.url?.query == nil)
        #expect(encoded.httpBody == Data("a=1".utf8))
        #expect(encoded.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")

        var delete = request
        delete.method = .delete
        #expect(try URLEncoding.default.encode(delete, with: ["a": 1]).url?.query == "a=1")
        #expect(try URLEncoding.httpBody.encode(request, with: ["a": 1]).httpBody == Data("a=1".utf8))
        #expect(try URLEncoding.queryString.encode(post, with: ["a": 1]).url?.query == "a=1")
    }

    @Test func keepsExistingContentType() throws {
        var post = request
        post.method = .post
        post.headers.update(.contentType("text/custom"))
        #expect(try URLEncoding.default.encode(post, with: ["a": 1]).headers["Content-Type"] == "text/custom")
    }

    @Test func nilParametersLeaveRequestAlone() throws {
        #expect(try URLEncoding.default.encode(request, with: nil) == request)
    }
}

@Suite struct JSONEncodingTests {
    let request = URLRequest(url: URL(string: "https://example.com/")!)

    @Test func encodesBodyAndContentType() throws {
        let encoded = try JSONEncoding.default.encode(request, with: ["a": 1])
        #expect(encoded.httpBody == Data(#"{"a":1}"#.utf8))
        #expect(encoded.headers["Content-Type"] == "application/json")
    }

    @Test func prettyPrinted() throws {
        let encoded = try JSONEncoding.prettyPrinted.encode(request, with: ["a": 1])
        #expect(String(decoding: encoded.httpBody!, as: UTF8.self).contains("\n"))
    }

    @Test func invalidObjectIsAnEncodingError() throws {
        let error = #expect(throws: AFError.self) {
            try JSONEncoding.default.encode(request, withJSONObject: ["date": Date()])
        }
        #expect(error?.isParameterEncodingError == true)
    }
}

@Suite struct ParameterEncoderTests {
    struct Parameters: Encodable, Sendable {
        let name: String
        let count: Int
    }

    let request = URLRequest(url: URL(string: "https://example.com/")!)

    @Test func jsonEncoders() throws {
        var post = request
        post.method = .post
        let encoded = try JSONParameterEncoder.sortedKeys.encode(Parameters(name: "a", count: 1), into: post)
        #expect(encoded.httpBody == Data(#"{"count":1,"name":"a"}"#.utf8))
        #expect(encoded.headers["Content-Type"] == "application/json")
        let pretty = try JSONParameterEncoder.prettyPrinted.encode(Parameters(name: "a", count: 1), into: post)
        #expect(String(decoding: pretty.httpBody!, as: UTF8.self).contains("\n"))
    }

    @Test func formEncoderGoesToQueryForGET() throws {
        var get = try URLRequest(url: "https://example.com/?x=1", method: .get)
        get = try URLEncodedFormParameterEncoder.default.encode(Parameters(name: "a b", count: 1), into: get)
        #expect(get.url?.query == "x=1&count=1&name=a%20b")
    }

    @Test func formEncoderGoesToBodyForPOST() throws {
        let post = try URLRequest(url: "https://example.com/", method: .post)
        let encoded = try URLEncodedFormParameterEncoder.default.encode(Parameters(name: "a", count: 1), into: post)
        #expect(encoded.httpBody == Data("count=1&name=a".utf8))
        #expect(encoded.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test func missingMethodIsReported() throws {
        var request = self.request
        request.httpMethod = nil
        #expect(request.method == .get || request.method == nil)
    }

    @Test func nonKeyedRootFails() throws {
        let error = #expect(throws: AFError.self) {
            try URLEncodedFormParameterEncoder.default.encode([1, 2], into: try URLRequest(url: "https://e.com", method: .get))
        }
        #expect(error?.isParameterEncoderError == true)
    }
}
