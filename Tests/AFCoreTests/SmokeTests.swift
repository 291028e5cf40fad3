@testable import AFCore
import AFTestSupport
import Foundation
import Testing

@Suite(.timeLimit(.minutes(1))) struct SmokeTests {
    @Test func getFromHTTPBin() async throws {
        let session = makeSession()
        let value = try await session.request(Server.httpbin("/get")).serializingDecodable(HTTPBinResponse.self).value
        #expect(value.url?.hasSuffix("/get") == true)
    }

    @Test func defaultQueueIsMain() async {
        let session = makeSession()
        let onMain: Bool = await response { done in
            session.request(Server.httpbin("/get")).response { _ in done(QueueMarker.main.isCurrent) }
        }
        #expect(onMain)
    }
}
