@testable import AFCore
import AFTestSupport
import Foundation
import Testing

@Suite struct URLEncodedFormEncoderTests {
    struct Nested: Encodable { let inner: Inner; struct Inner: Encodable { let a: Int; let b: String } }
    struct Optionals: Encodable {
        let present: String?
        let absent: String?
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(present, forKey: .present)
            try container.encode(absent, forKey: .absent)
        }
        enum CodingKeys: CodingKey { case present, absent }
    }

    private func encode(_ value: some Encodable, _ encoder: URLEncodedFormEncoder = URLEncodedFormEncoder()) throws -> String {
        try encoder.encode(value)
    }

    class Animal: Encodable {
        let legs = 4
    }

    /// A subclass encoding its superclass's fields the usual way, through `superEncoder()`.
    final class Dog: Animal {
        let name = "Rex"
        enum CodingKeys: String, CodingKey { case name }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try super.encode(to: container.superEncoder())
        }
    }

    /// The superclass's fields go under "super", though the subclass's keys have no such case;
    /// its encoder's coding path ends with that key, as JSONEncoder's does.
    @Test func aSuperclassIsEncodedUnderSuper() throws {
        #expect(try URLEncodedFormEncoder().encode(Dog()) == "name=Rex&super%5Blegs%5D=4")
        final class Probe: Encodable {
            enum CodingKeys: String, CodingKey { case unused }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                let path = container.superEncoder().codingPath.map(\.stringValue)
                try container.encode(path.joined(separator: "."), forKey: .unused)
            }
        }
        #expect(try URLEncodedFormEncoder().encode(Probe()) == "unused=super")
    }

    /// Allowed characters that leave some raw which a URL query cannot carry (here brackets)
    /// make the query-string encoding fail with an error; URLComponents would trap on them.
    @Test func aQueryWithCharactersAQueryCannotCarryIsAnError() throws {
        let allowed = CharacterSet.afURLQueryAllowed.union(CharacterSet(charactersIn: "[]"))
        let encoder = URLEncodedFormParameterEncoder(encoder: URLEncodedFormEncoder(allowedCharacters: allowed),
                                                     destination: .queryString)
        let request = URLRequest(url: URL(string: "http://127.0.0.1/search")!)
        #expect(throws: AFError.self) { try encoder.encode(["q": ["a", "b"]], into: request) }
        #expect(try encoder.encode(["q": "Jos\u{E9}"], into: request).url?.query == "q=Jos%C3%A9")
    }

    @Test(arguments: [("a=1&b=%2F%aF", true), ("", true), ("x:@/?!$'()*+,;=-._~", true), ("%4", false),
                      ("%zz", false), ("a[]=1", false), ("caf\u{E9}", false), ("a b", false), ("a|b", false)])
    func queryCharacters(query: String, valid: Bool) {
        #expect(QueryCharacters.isValidPercentEncodedQuery(query) == valid)
    }

    @Test func basicValuesAreSorted() throws {
        #expect(try encode(["b": "2", "a": "1"]) == "a=1&b=2")
        #expect(try encode(["b": "2", "a": "1"], URLEncodedFormEncoder(alphabetizeKeyValuePairs: false)).count == 7)
    }

    @Test func arrayEncodings() throws {
        #expect(try encode(["a": [1, 2]]) == "a%5B%5D=1&a%5B%5D=2")
        #expect(try encode(["a": [1, 2]], URLEncodedFormEncoder(arrayEncoding: .noBrackets)) == "a=1&a=2")
        #expect(try encode(["a": [1, 2]], URLEncodedFormEncoder(arrayEncoding: .indexInBrackets)) == "a%5B0%5D=1&a%5B1%5D=2")
        #expect(try encode(["a": [1]], URLEncodedFormEncoder(arrayEncoding: .custom { "\($0)-\($1)" })) == "a-0=1")
    }

    @Test func boolEncodings() throws {
        #expect(try encode(["a": true]) == "a=1")
        #expect(try encode(["a": false], URLEncodedFormEncoder(boolEncoding: .literal)) == "a=false")
    }

    @Test func dataEncodings() throws {
        let data = Data([1, 2, 3])
        #expect(try encode(["d": data]) == "d=AQID")
        #expect(try encode(["d": data], URLEncodedFormEncoder(dataEncoding: .deferredToData)) == "d%5B%5D=1&d%5B%5D=2&d%5B%5D=3")
        #expect(try encode(["d": data], URLEncodedFormEncoder(dataEncoding: .custom { _ in "x" })) == "d=x")
    }

    @Test func dateEncodings() throws {
        let date = Date(timeIntervalSince1970: 1)
        #expect(try encode(["d": date], URLEncodedFormEncoder(dateEncoding: .secondsSince1970)) == "d=1.0")
        #expect(try encode(["d": date], URLEncodedFormEncoder(dateEncoding: .millisecondsSince1970)) == "d=1000.0")
        #expect(try encode(["d": date], URLEncodedFormEncoder(dateEncoding: .iso8601)) == "d=1970-01-01T00%3A00%3A01Z")
        #expect(try encode(["d": date]) == "d=-978307199.0")
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy"
        formatter.timeZone = TimeZone(identifier: "UTC")
        #expect(try encode(["d": date], URLEncodedFormEncoder(dateEncoding: .formatted(formatter))) == "d=1970")
        #expect(try encode(["d": date], URLEncodedFormEncoder(dateEncoding: .custom { _ in "c" })) == "d=c")
    }

    @Test func keyEncodings() throws {
        let value = ["oneTwoThree": 1]
        #expect(try encode(value, URLEncodedFormEncoder(keyEncoding: .convertToSnakeCase)) == "one_two_three=1")
        #expect(try encode(value, URLEncodedFormEncoder(keyEncoding: .convertToKebabCase)) == "one-two-three=1")
        #expect(try encode(value, URLEncodedFormEncoder(keyEncoding: .capitalized)) == "OneTwoThree=1")
        #expect(try encode(value, URLEncodedFormEncoder(keyEncoding: .uppercased)) == "ONETWOTHREE=1")
        #expect(try encode(value, URLEncodedFormEncoder(keyEncoding: .lowercased)) == "onetwothree=1")
        #expect(try encode(value, URLEncodedFormEncoder(keyEncoding: .custom { "k_" + $0 })) == "k_oneTwoThree=1")
    }

    @Test func keyPathEncodings() throws {
        let value = Nested(inner: .init(a: 1, b: "x"))
        #expect(try encode(value) == "inner%5Ba%5D=1&inner%5Bb%5D=x")
        #expect(try encode(value, URLEncodedFormEncoder(keyPathEncoding: .dots)) == "inner.a=1&inner.b=x")
        #expect(try encode(value, URLEncodedFormEncoder(keyPathEncoding: .init { "-\($0)" })) == "inner-a=1&inner-b=x")
    }

    @Test func nilEncodings() throws {
        let value = Optionals(present: "p", absent: nil)
        #expect(try encode(value) == "present=p")
        #expect(try encode(value, URLEncodedFormEncoder(nilEncoding: .dropValue)) == "absent=&present=p")
        #expect(try encode(value, URLEncodedFormEncoder(nilEncoding: .null)) == "absent=null&present=p")
    }

    @Test func spaceEncodings() throws {
        #expect(try encode(["a": "x y"]) == "a=x%20y")
        #expect(try encode(["a": "x y+z"], URLEncodedFormEncoder(spaceEncoding: .plusReplaced)) == "a=x+y%2Bz")
    }

    @Test func customAllowedCharacters() throws {
        #expect(try encode(["a": "x&y"], URLEncodedFormEncoder(allowedCharacters: .alphanumerics)) == "a=x%26y")
        #expect(try encode(["a": "x:y"], URLEncodedFormEncoder(allowedCharacters: CharacterSet(charactersIn: "ax:y="))) == "a=x:y")
    }

    @Test func rootMustBeKeyed() throws {
        #expect(throws: URLEncodedFormEncoder.Error.self) { try encode([1, 2]) }
        #expect(throws: URLEncodedFormEncoder.Error.self) { try encode("string") }
    }

    @Test func encodesToData() throws {
        let data: Data = try URLEncodedFormEncoder().encode(["a": "1"])
        #expect(data == Data("a=1".utf8))
    }
}
