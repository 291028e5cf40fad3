import AFCache
import AFTestSupport
import Foundation
import Testing

/// Dates a server sends are read strictly, never by a formatter that can be made to crash:
/// fuzzing found a Last-Modified with a combining character that crashed the process in
/// Foundation's DateFormatter when the cache computed a heuristic freshness.
@Suite struct MalformedDateTests {
    @Test(arguments: ["Last-Modified", "Expires", "Date"])
    func aNonASCIIDateIsNoDate(field: String) async throws {
        let probe = try CacheProbe()
        let key = "malformed-\(field)-\(UUID().uuidString)"
        let url = CacheProbe.url(key, ["\(field):Sun, 06 Nov 199\u{333}"])
        let first = await probe.get(url)
        let second = await probe.get(url)
        #expect(first.status == 200)
        #expect(second.status == 200)
        // No freshness can be worked out from a date that is none: the second request goes out.
        #expect(second.served == 2)
    }
}
