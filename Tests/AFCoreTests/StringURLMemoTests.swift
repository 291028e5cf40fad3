@testable import AFCore
import Foundation
import Testing

/// `String.asURL()` keeps the URLs of the strings it parsed last (`StringURLMemo`): a string
/// used again gets the URL it made before, and the memo never changes what a string makes.
@Suite(.timeLimit(.minutes(1))) struct StringURLMemoTests {
    @Test func aKeptStringGetsItsURLBackAndAnotherDoesNot() throws {
        let memo = StringURLMemo()
        let url = try #require(URL(string: "http://127.0.0.1:8080/a?b=c%20d"))
        #expect(memo.url(for: "http://127.0.0.1:8080/a?b=c%20d") == nil)
        memo.keep(url, for: "http://127.0.0.1:8080/a?b=c%20d")
        // Another String with the same bytes (not the same storage) finds it.
        let sameBytes = "http://127.0.0.1:8080/a?b=c" + "%20d"
        #expect(memo.url(for: sameBytes) == url)
        #expect(memo.url(for: "http://127.0.0.1:8080/a?b=c%20e") == nil)
        #expect(memo.url(for: "http://127.0.0.1:8080/a?b=c%20") == nil)
    }

    /// Full, a new string replaces the one least recently kept or found.
    @Test func theMemoReplacesTheLeastRecentlyUsedString() throws {
        let memo = StringURLMemo()
        let strings = (0...StringURLMemo.capacity).map { "http://127.0.0.1:8080/\($0)" }
        for string in strings { memo.keep(try #require(URL(string: string)), for: string) }
        #expect(memo.url(for: strings[0]) == nil)
        for string in strings.dropFirst() { #expect(memo.url(for: string)?.absoluteString == string) }
        // strings[1] is found again: strings[2] is now the least recently used.
        #expect(memo.url(for: strings[1]) != nil)
        let next = "http://127.0.0.1:8080/next"
        memo.keep(try #require(URL(string: next)), for: next)
        #expect(memo.url(for: strings[2]) == nil)
        #expect(memo.url(for: strings[1]) != nil)
        #expect(memo.url(for: next) != nil)
    }

    /// A string kept twice (two threads parsed it at once) takes one slot.
    @Test func aStringKeptTwiceTakesOneSlot() throws {
        let memo = StringURLMemo()
        let strings = (0..<StringURLMemo.capacity).map { "http://127.0.0.1:8080/\($0)" }
        memo.keep(try #require(URL(string: strings[0])), for: strings[0])
        for string in strings { memo.keep(try #require(URL(string: string)), for: string) }
        for string in strings { #expect(memo.url(for: string) != nil) }
    }

    @Test func stringsUpToTheLimitAreKept() throws {
        let memo = StringURLMemo()
        let prefix = "http://127.0.0.1:8080/"
        let longest = prefix + String(repeating: "a", count: StringURLMemo.maximumLength - prefix.utf8.count)
        let tooLong = longest + "a"
        for string in [longest, tooLong] { memo.keep(try #require(URL(string: string)), for: string) }
        #expect(memo.url(for: longest) != nil)
        #expect(memo.url(for: tooLong) == nil)
    }

    /// A URL with user info (a password, perhaps) is not kept.
    @Test func aStringWithUserInfoIsNotKept() throws {
        let memo = StringURLMemo()
        let string = "http://user:secret@127.0.0.1:8080/"
        memo.keep(try #require(URL(string: string)), for: string)
        #expect(memo.url(for: string) == nil)
        #expect(try string.asURL().password == "secret")
    }

    /// Two spellings of "é" are equal Strings but different bytes, and make different URLs:
    /// the memo compares bytes, so each spelling keeps its own URL.
    @Test func canonicallyEquivalentStringsKeepTheirOwnURLs() throws {
        let composed = "http://127.0.0.1:8080/caf\u{E9}"
        let decomposed = "http://127.0.0.1:8080/cafe\u{301}"
        #expect(composed == decomposed)
        let memo = StringURLMemo()
        memo.keep(try #require(URL(string: composed)), for: composed)
        #expect(memo.url(for: decomposed) == nil)
        // Through the shared memo, as requests use it.
        let first = try composed.asURL()
        let second = try decomposed.asURL()
        #expect(first.absoluteString != second.absoluteString)
        #expect(try composed.asURL() == first)
        #expect(try decomposed.asURL() == second)
    }

    /// A string that is not a URL throws each time; a URL string parses to what Foundation makes.
    @Test func asURLAnswersAsParsingDoes() throws {
        for _ in 0..<2 {
            #expect(throws: AFError.self) { try "".asURL() }
            #expect(try "not a url".asURL() == URL(string: "not a url"))
        }
        let string = "https://example.com:8443/p/a%2Fb?q=1#f"
        let parsed = try #require(URL(string: string))
        for _ in 0..<2 {
            let url = try string.asURL()
            #expect(url == parsed && url.host == "example.com" && url.port == 8443 && url.query == "q=1")
        }
    }

    /// Many threads parsing a few strings at once each get the URL of their own string (TSan).
    @Test func threadsSharingTheMemoGetTheirOwnURLs() async throws {
        let strings = (0..<(StringURLMemo.capacity + 2)).map { "http://127.0.0.1:8080/threads/\($0)" }
        let wrong = await withTaskGroup(of: Int.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let string = strings[index % strings.count]
                    return (0..<50).filter { _ in (try? string.asURL())?.absoluteString != string }.count
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
    }
}
