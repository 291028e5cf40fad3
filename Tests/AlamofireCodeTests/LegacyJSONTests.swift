import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Older Alamofire code: `responseJSON` and `JSONResponseSerializer`, deprecated there as here.
/// The calls sit in deprecated methods reached through a protocol, so the deprecation warnings
/// (errors in this build) stay where they belong: in the code that uses the old API.
protocol LegacyJSONCode {
    func fetchJSON(_ url: String, with session: Session) async -> AFDataResponse<Any>
    func downloadJSON(_ url: String, with session: Session) async -> AFDownloadResponse<Any>
    func serializeJSON(_ data: Data?) throws -> Any
    func defaultSerializerRules() -> (options: JSONSerialization.ReadingOptions, emptyCodes: Set<Int>)
}

struct LegacyJSONClient: LegacyJSONCode {
    @available(*, deprecated, message: "uses Alamofire's deprecated JSON API on purpose")
    func fetchJSON(_ url: String, with session: Session) async -> AFDataResponse<Any> {
        await withCheckedContinuation { continuation in
            session.request(url).responseJSON { continuation.resume(returning: $0) }
        }
    }

    @available(*, deprecated, message: "uses Alamofire's deprecated JSON API on purpose")
    func downloadJSON(_ url: String, with session: Session) async -> AFDownloadResponse<Any> {
        await withCheckedContinuation { continuation in
            session.download(url).responseJSON { continuation.resume(returning: $0) }
        }
    }

    @available(*, deprecated, message: "uses Alamofire's deprecated JSON API on purpose")
    func serializeJSON(_ data: Data?) throws -> Any {
        try JSONResponseSerializer().serialize(request: nil, response: nil, data: data, error: nil)
    }

    @available(*, deprecated, message: "uses Alamofire's deprecated JSON API on purpose")
    func defaultSerializerRules() -> (options: JSONSerialization.ReadingOptions, emptyCodes: Set<Int>) {
        let serializer = JSONResponseSerializer()
        return (serializer.options, serializer.emptyResponseCodes)
    }
}

@Suite(.timeLimit(.minutes(1))) struct LegacyJSONTests {
    let code: any LegacyJSONCode = LegacyJSONClient()

    @Test func responseJSONGivesJSONSerializationObjects() async throws {
        let session = makeSession()
        let response = await code.fetchJSON(Server.httpbin("/json"), with: session)
        let object = try #require(response.value as? [String: Any])
        #expect(object["slideshow"] is [String: Any])
        #expect(await code.fetchJSON(Server.httpbin("/status/204"), with: session).value is NSNull)
        #expect(await code.fetchJSON(Server.httpbin("/html"), with: session).error?.isResponseSerializationError == true)
    }

    @Test func theSerializerReadsBodiesAsAlamofiresDoes() throws {
        let rules = code.defaultSerializerRules()
        #expect(rules.options == .allowFragments && rules.emptyCodes == [204, 205])
        #expect((try code.serializeJSON(Data("[1,2]".utf8)) as? [Int]) == [1, 2])
        #expect((try code.serializeJSON(Data("7".utf8)) as? Int) == 7, "fragments allowed")
        #expect(throws: AFError.self) { try code.serializeJSON(nil) }
    }

    @Test func aDownloadToo() async throws {
        let response = await code.downloadJSON(Server.httpbin("/json"), with: makeSession())
        #expect(response.value is [String: Any])
        if let url = response.fileURL { try? FileManager.default.removeItem(at: url) }
    }
}
