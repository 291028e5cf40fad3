@testable import AFCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The media-type parsing behind content-type validation (a pure function).
struct MIMETypeTests {
    @Test(arguments: [("application/json", "application", "json"), ("  Text/HTML ; charset=UTF-8", "text", "html"),
                      ("*/*", "*", "*"), ("application/*;q=0.8", "application", "*"), ("image/svg+xml", "image", "svg+xml")])
    func parsesTypeAndSubtypeLowerCasedWithoutParameters(text: String, type: String, subtype: String) throws {
        let parsed = try #require(MIMEType(text))
        #expect(parsed.type == type && parsed.subtype == subtype)
    }

    @Test(arguments: ["", "json", "/json", "application/", "a/b/c", " / ", ";a/b"])
    func refusesWhatIsNotTypeSlashSubtype(text: String) {
        #expect(MIMEType(text) == nil)
    }

    @Test func wildcardsMatch() throws {
        let json = try #require(MIMEType("application/json"))
        #expect(try #require(MIMEType("application/*")).matches(json))
        #expect(try #require(MIMEType("*/*")).matches(json) && MIMEType("*/*")?.matchesAll == true)
        #expect(!(try #require(MIMEType("text/*")).matches(json)))
    }

    @Test func acceptListsAreSplitAndTrimmed() {
        var request = URLRequest(url: URL(string: "http://example.test/")!)
        request.setValue("application/json, text/plain ,\t*/*", forHTTPHeaderField: "Accept")
        #expect(ValidationRules.acceptableContentTypes(for: request) == ["application/json", "text/plain", "*/*"])
        #expect(ValidationRules.acceptableContentTypes(for: nil) == ["*/*"])
    }
}
