@testable import AFCore
import Testing

@Suite struct CStringMemoTests {
    @Test func givesEachCStringsTextAndNilForNil() {
        var memo = CStringMemo()
        #expect(memo.string(for: nil) == nil)
        #expect("127.0.0.1".withCString { memo.string(for: $0) } == "127.0.0.1")
        #expect("127.0.0.1".withCString { memo.string(for: $0) } == "127.0.0.1")
        // Same length, other bytes; then shorter, then a prefix of the last one.
        #expect("127.0.0.2".withCString { memo.string(for: $0) } == "127.0.0.2")
        #expect("::1".withCString { memo.string(for: $0) } == "::1")
        #expect(":".withCString { memo.string(for: $0) } == ":")
        #expect("".withCString { memo.string(for: $0) } == "")
        #expect("".withCString { memo.string(for: $0) } == "")
        #expect("10.0.0.1".withCString { memo.string(for: $0) } == "10.0.0.1")
    }
}
