@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// RetryPolicy's defaults and Retry-After reading, without a server.
@Suite struct RetryPolicyTests {
    @Test func alamofireDefaults() {
        let policy = RetryPolicy()
        #expect(policy.retryLimit == 2)
        #expect(policy.exponentialBackoffBase == 2)
        #expect(policy.exponentialBackoffScale == 0.5)
        #expect(policy.retryableHTTPMethods == [.delete, .get, .head, .options, .put, .trace])
        #expect(policy.retryableHTTPStatusCodes == [408, 500, 502, 503, 504])
        #expect(policy.retryableURLErrorCodes.contains(.timedOut))
        #expect(policy.retryableURLErrorCodes.contains(.networkConnectionLost))
        #expect(!policy.retryableURLErrorCodes.contains(.cancelled))
        #expect(!policy.retryableURLErrorCodes.contains(.badURL))
        #expect(!policy.retryableURLErrorCodes.contains(.serverCertificateUntrusted))
        #expect(policy.retryAfter == nil)
        #expect(RetryPolicy(exponentialBackoffBase: 1).exponentialBackoffBase == 2)
    }

    private func response(_ headers: [String: String]) -> HTTPURLResponse {
        HTTPURLResponse(url: URL(string: "http://example.invalid/")!, statusCode: 503, httpVersion: "HTTP/1.1",
                        headerFields: headers)!
    }

    @Test func retryAfterSeconds() {
        #expect(RetryAfterPolicy.default.delay(for: response(["Retry-After": "120"])) == 120)
        #expect(RetryAfterPolicy.default.delay(for: response(["Retry-After": " 0 "])) == 0)
        #expect(RetryAfterPolicy.default.delay(for: response(["Retry-After": "-3"])) == nil)
        #expect(RetryAfterPolicy.default.delay(for: response(["Retry-After": "soon"])) == nil)
        #expect(RetryAfterPolicy.default.delay(for: response([:])) == nil)
    }

    @Test func retryAfterDateIsMeasuredFromTheResponseDate() {
        let headers = ["Retry-After": "Sun, 06 Nov 1994 08:50:07 GMT", "Date": "Sun, 06 Nov 1994 08:49:37 GMT"]
        #expect(RetryAfterPolicy.default.delay(for: response(headers)) == 30)
        // Without Date, from now; a date in the past means no wait.
        #expect(RetryAfterPolicy.default.delay(for: response(["Retry-After": "Sun, 06 Nov 1994 08:50:07 GMT"])) == 0)
    }

    @Test func httpDateForms() {
        let expected = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
        #expect(HTTPDate.parse("06/11/1994") == nil)
        #expect(HTTPDate.parse(" Sun,  06 Nov 1994  08:49:37 GMT ") == expected)
        // IMF-fixdate read by position: leap days, far years, and what is not a date.
        #expect(HTTPDate.parse("Tue, 29 Feb 2000 00:00:00 GMT") == Date(timeIntervalSince1970: 951_782_400))
        #expect(HTTPDate.parse("Fri, 01 Jan 2100 23:59:59 GMT") == Date(timeIntervalSince1970: 4_102_531_199))
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
        #expect(HTTPDate.parse("Tue, 29 Feb 2100 00:00:00 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 24:49:37 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 UTC") == nil)
        #expect(HTTPDate.parse("Sun, 06 Xyz 1994 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 0a Nov 1994 08:49:37 GMT") == nil)
        // The obsolete forms are read as strictly (found by fuzzing: Foundation's formatter took
        // "08:2-:37" as 08:02:37, and crashed on a combining character).
        #expect(HTTPDate.parse("Sun Nov 16 08:49:37 1994") == expected + 10 * 86_400)
        #expect(HTTPDate.parse("Sun, 06 Nov 3994 08:2-:37 GMT") == nil)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:2-:37 GMT") == nil)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 94") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 199\u{333}") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT\u{333}") == nil)
        // A two-digit year more than 50 years ahead is the last such year past (RFC 9110 §5.6.7).
        let thisYear = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "GMT")!, from: Date()).year!
        let ahead = (thisYear + 49) % 100, behind = (thisYear + 51) % 100
        let aheadYear = HTTPDate.parse(String(format: "Monday, 01-Jan-%02d 00:00:00 GMT", ahead))
            .map { Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "GMT")!, from: $0).year }
        let behindYear = HTTPDate.parse(String(format: "Monday, 01-Jan-%02d 00:00:00 GMT", behind))
            .map { Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "GMT")!, from: $0).year }
        #expect(aheadYear == thisYear + 49)
        #expect(behindYear == thisYear + 51 - 100)
    }

    @Test func aRetryAfterThatIsNoDateMeansNoWaitAndNoCrash() {
        #expect(RetryAfterPolicy.default.delay(for: response(["Retry-After": "Sun, 06 Nov 199\u{333}"])) == nil)
    }
}
