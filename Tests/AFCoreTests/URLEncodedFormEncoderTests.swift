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

    /// The super encoders' coding paths, joined by "/": `superEncoder()`'s, `superEncoder(forKey: .keyed)`'s
    /// and that of the `superEncoder()` of an unkeyed container under `list`.
    struct SuperEncoderPaths: Encodable {
        enum CodingKeys: CodingKey { case paths, keyed, list }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            let encoders = [container.superEncoder(), container.superEncoder(forKey: .keyed), list.superEncoder()]
            try container.encode(encoders.map { $0.codingPath.map(\.stringValue).joined() }.joined(separator: "/"),
                                 forKey: .paths)
        }
    }

    /// The superclass's fields go into the subclass's own object, as Alamofire puts them; a super
    /// encoder's coding path is where it writes.
    @Test func aSuperclassIsEncodedAlongsideTheSubclass() throws {
        #expect(try encode(Dog()) == "legs=4&name=Rex")
        #expect(try encode(SuperEncoderPaths()) == "paths=/keyed/list")
    }

    /// `box` reached as a nested container, then through `superEncoder(forKey: .box)`.
    struct SuperEncoderForKey: Encodable {
        enum CodingKeys: CodingKey { case box, x, y }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var box = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .box)
            try box.encode("1", forKey: .y)
            var viaSuper = container.superEncoder(forKey: .box).container(keyedBy: CodingKeys.self)
            try viaSuper.encode("2", forKey: .x)
        }
    }

    @Test func superEncoderForAKeyWritesIntoWhatIsUnderThatKey() throws {
        #expect(try encode(SuperEncoderForKey()) == "box%5Bx%5D=2&box%5By%5D=1")
    }

    /// Two nested containers for `box`, the first written to before and after the second.
    struct KeyedTwice: Encodable {
        enum CodingKeys: CodingKey { case box, x, y }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var first = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .box)
            try first.encode("1", forKey: .y)
            var second = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .box)
            try second.encode("2", forKey: .x)
            try first.encode("3", forKey: .y)
        }
    }

    @Test func aKeyedContainerReachedTwiceWritesIntoOneObject() throws {
        #expect(try encode(KeyedTwice()) == "box%5Bx%5D=2&box%5By%5D=3")
        #expect(try encode(KeyedTwice(), URLEncodedFormEncoder(alphabetizeKeyValuePairs: false)) == "box%5By%5D=3&box%5Bx%5D=2")
    }

    /// Two unkeyed containers for `list`: "a" and "b", then "c".
    struct UnkeyedTwice: Encodable {
        enum CodingKeys: CodingKey { case list }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var first = container.nestedUnkeyedContainer(forKey: .list)
            try first.encode("a")
            try first.encode("b")
            var second = container.nestedUnkeyedContainer(forKey: .list)
            try second.encode("c")
        }
    }

    @Test func anUnkeyedContainerReachedTwiceStartsAgainAtTheFirstItem() throws {
        #expect(try encode(UnkeyedTwice(), URLEncodedFormEncoder(arrayEncoding: .indexInBrackets)) == "list%5B0%5D=c&list%5B1%5D=b")
    }

    /// `box` as an object, then as an array, then (if `writesLast`) the object's container again.
    struct Reshaped: Encodable {
        enum CodingKeys: CodingKey { case box, x }
        let writesLast: Bool
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var keyed = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .box)
            try keyed.encode("1", forKey: .x)
            var list = container.nestedUnkeyedContainer(forKey: .box)
            try list.encode("2")
            if writesLast { try keyed.encode("3", forKey: .x) }
        }
    }

    /// A key written into an array, or an item into an object, replaces what was there.
    @Test func aWriteOfTheOtherShapeReplacesWhatWasThere() throws {
        #expect(try encode(Reshaped(writesLast: false)) == "box%5B%5D=2")
        #expect(try encode(Reshaped(writesLast: true)) == "box%5Bx%5D=3")
    }

    /// An unkeyed container whose `superEncoder()` and nested containers are left empty, then
    /// (if `writesThroughSuper`) one whose super encoder writes a key.
    struct UnkeyedSuper: Encodable {
        enum CodingKeys: CodingKey { case list, x }
        let writesThroughSuper: Bool
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            _ = list.superEncoder()
            try list.encode("a")
            _ = list.nestedContainer(keyedBy: CodingKeys.self)
            try list.encode("b")
            guard writesThroughSuper else { return }
            var viaSuper = list.superEncoder().container(keyedBy: CodingKeys.self)
            try viaSuper.encode("c", forKey: .x)
        }
    }

    /// An unkeyed container's `superEncoder()` takes a position and writes at the array's own key;
    /// positions nothing was written at take no index.
    @Test func anUnkeyedContainersSuperEncoderWritesAtTheArraysKey() throws {
        let encoder = URLEncodedFormEncoder(arrayEncoding: .indexInBrackets)
        #expect(try encode(UnkeyedSuper(writesThroughSuper: false), encoder) == "list%5B0%5D=a&list%5B1%5D=b")
        #expect(try encode(UnkeyedSuper(writesThroughSuper: true), encoder) == "list%5Bx%5D=c")
    }

    /// `root` holding `[2]`, then `[[1]]`.
    struct Depths: Encodable {
        enum CodingKeys: CodingKey { case root }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var list = container.nestedUnkeyedContainer(forKey: .root)
            try list.encode([2])
            var inner = list.nestedUnkeyedContainer()
            try inner.encode([1])
        }
    }

    /// Sorting compares escaped `key=value` text, array items included, one level at a time: the
    /// pairs of an item or a nested object stay together.
    @Test func sortingComparesEscapedPairsLevelByLevel() throws {
        #expect(try encode(Depths()) == "root%5B%5D%5B%5D%5B%5D=1&root%5B%5D%5B%5D=2")
        #expect(try encode(Depths(), URLEncodedFormEncoder(alphabetizeKeyValuePairs: false))
            == "root%5B%5D%5B%5D=2&root%5B%5D%5B%5D%5B%5D=1")
        #expect(try encode(["k": [[3, 1], [2]]]) == "k%5B%5D%5B%5D=1&k%5B%5D%5B%5D=3&k%5B%5D%5B%5D=2")
        #expect(try encode(["k": ["b", "a", "10", "9"]]) == "k%5B%5D=10&k%5B%5D=9&k%5B%5D=a&k%5B%5D=b")
        #expect(try encode(["a": "1", "a b": "2"]) == "a%20b=2&a=1")
    }

    struct AbsentOptionals: Encodable {
        let name: String? = "n"
        let count: Int? = nil
        let ratio: Double? = nil
    }

    @Test func anAbsentOptionalOfAnyTypeFollowsNilEncoding() throws {
        #expect(try encode(AbsentOptionals()) == "name=n")
        #expect(try encode(AbsentOptionals(), URLEncodedFormEncoder(nilEncoding: .null)) == "count=null&name=n&ratio=null")
    }

    struct TwoSingleValues: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(["a": "1"])
            try container.encode(["b": "2"])
        }
    }

    @Test func aSingleValueContainerTakesOneValue() throws {
        #expect(throws: EncodingError.self) { try encode(["v": TwoSingleValues()]) }
    }

    struct Silent: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    @Test func aRootThatWritesNothingIsAnEmptyForm() throws {
        #expect(try encode(Silent()) == "")
        #expect(try encode([Int]()) == "")
        #expect(try encode([String: String]()) == "")
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
