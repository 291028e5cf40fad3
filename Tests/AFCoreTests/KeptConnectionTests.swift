@testable import AFCore
import Testing

/// The two byte-level readings behind the connection a finished transfer leaves to the next
/// driven start: its origin, and whether the server said it closes the connection.
struct KeptConnectionTests {
    @Test func theOriginEndsWithTheAuthority() {
        let origin = EngineCommandQueue.KeptConnection.origin(of:)
        #expect(origin("http://127.0.0.1:8080/bench.json?x=1") == "http://127.0.0.1:8080")
        #expect(origin("https://example.com?q") == "https://example.com")
        #expect(origin("https://example.com#top") == "https://example.com")
        #expect(origin("https://user@[::1]:443") == "https://user@[::1]:443")
        #expect(origin("unix:/tmp/socket") == nil)
        #expect(origin("no-scheme") == nil)
    }

    @Test func closeIsAConnectionOptionInAnyCase() {
        let namesClose = EngineCommandQueue.KeptConnection.namesClose
        #expect(namesClose("close"))
        #expect(namesClose("Close"))
        #expect(namesClose("keep-alive, CLOSE"))
        #expect(namesClose(" close ,upgrade"))
        #expect(!namesClose(nil))
        #expect(!namesClose("keep-alive"))
        #expect(!namesClose("closed"))
        #expect(!namesClose("x-close"))
        #expect(!namesClose(""))
    }
}
