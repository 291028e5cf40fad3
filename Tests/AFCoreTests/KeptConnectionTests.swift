@testable import AFCore
import Testing

/// The two byte-level readings behind the connection a finished transfer leaves to the next
/// driven start: its origin, and whether the server said it closes the connection.
struct KeptConnectionTests {
    private func origin(_ url: String) -> String? {
        var url = url
        return url.withUTF8 { bytes in
            EngineCommandQueue.KeptConnection.originLength(of: bytes).map { String(decoding: bytes[..<$0], as: UTF8.self) }
        }
    }

    private func namesClose(_ value: String) -> Bool {
        var value = value
        return value.withUTF8(EngineCommandQueue.KeptConnection.namesClose)
    }

    @Test func theOriginEndsWithTheAuthority() {
        #expect(origin("http://127.0.0.1:8080/bench.json?x=1") == "http://127.0.0.1:8080")
        #expect(origin("https://example.com?q") == "https://example.com")
        #expect(origin("https://example.com#top") == "https://example.com")
        #expect(origin("https://user@[::1]:443") == "https://user@[::1]:443")
        #expect(origin("unix:/tmp/socket") == nil)
        #expect(origin("no-scheme") == nil)
    }

    @Test func closeIsAConnectionOptionInAnyCase() {
        #expect(namesClose("close"))
        #expect(namesClose("Close"))
        #expect(namesClose("keep-alive, CLOSE"))
        #expect(namesClose(" close ,upgrade"))
        #expect(namesClose("upgrade,\tclose\t"))
        #expect(namesClose("keep-alive,,close,"))
        #expect(!namesClose("keep-alive"))
        #expect(!namesClose("closed"))
        #expect(!namesClose("x-close"))
        #expect(!namesClose("clo se"))
        #expect(!namesClose(""))
        #expect(!namesClose(","))
    }
}
