@testable import AFCore
import AFTestSupport
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `serializationDuration` is the time the serializer took, for data and download responses.
@Suite(.timeLimit(.minutes(1))) struct SerializationDurationTests {
    /// A serializer that takes at least `seconds` of monotonic time before handing the body on.
    struct SlowSerializer: ResponseSerializer {
        let seconds: Double

        func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> Data {
            let end = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
            while DispatchTime.now().uptimeNanoseconds < end {}
            return data ?? Data()
        }
    }

    @Test func aDataResponseCarriesTheSerializersTime() async {
        let session = makeSession()
        let response = await session.request(Server.httpbin("/get"))
            .serializingResponse(using: SlowSerializer(seconds: 0.02)).response
        #expect(response.error == nil)
        #expect(response.serializationDuration >= 0.02, "\(response.serializationDuration)")
    }

    @Test func aDownloadResponseCarriesTheSerializersTime() async {
        let session = makeSession()
        let response = await session.download(Server.httpbin("/get"))
            .serializingDownload(using: SlowSerializer(seconds: 0.02)).response
        #expect(response.error == nil)
        #expect(response.serializationDuration >= 0.02, "\(response.serializationDuration)")
    }
}
