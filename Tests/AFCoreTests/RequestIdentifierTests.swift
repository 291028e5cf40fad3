@testable import AFCore
import Foundation
import Testing

@Suite("Request identifiers")
struct RequestIdentifierTests {
    @Test func identifiersAreDistinctAcrossThreads() async {
        let batches = await withTaskGroup(of: [UUID].self) { group in
            for _ in 0..<4 {
                group.addTask { (0..<25_000).map { _ in UUID.fastRandom() } }
            }
            return await group.reduce(into: [[UUID]]()) { $0.append($1) }
        }
        let all = batches.flatMap { $0 }
        #expect(Set(all).count == all.count)
    }

    @Test func identifiersAreVersionFourWithTheRFCVariant() {
        for _ in 0..<1_000 {
            let bytes = UUID.fastRandom().uuid
            #expect(bytes.6 >> 4 == 0x4)
            #expect(bytes.8 >> 6 == 0b10)
        }
    }

    @Test func requestsGetTheirOwnIdentifier() {
        let session = Session(startRequestsImmediately: false)
        let first = session.request("http://127.0.0.1:9/a")
        let second = session.request("http://127.0.0.1:9/a")
        #expect(first.id != second.id)
        #expect(first != second)
    }
}
