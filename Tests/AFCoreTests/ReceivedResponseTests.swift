@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The `HTTPURLResponse` is built only when read, once, and is then the same object everywhere;
/// AF's own validation and serializers never build it.
@Suite(.timeLimit(.minutes(1))) struct ReceivedResponseTests {
    private static let head = ResponseHead(statusCode: 201, httpVersion: "HTTP/1.1", headers: [
        ("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", "5"), ("X-Twice", "a"),
        ("Content-Disposition", "attachment; filename=\"report.txt\""), ("x-twice", "b"),
    ])

    @Test func readLateEarlyTwiceAndFromManyThreadsItIsOneObjectWithEveryField() async throws {
        let received = ReceivedResponse(head: Self.head, url: URL(string: "http://example.test/files/1")!)
        #expect(!received.isBuilt)
        #expect(received.statusCode == 201 && received.value(for: "x-twice") == "a")
        #expect(!received.isBuilt, "reading the head builds nothing")
        let objects = await withTaskGroup(of: HTTPURLResponse.self) { group in
            for _ in 0..<16 { group.addTask { received.httpResponse } }
            return await group.reduce(into: [HTTPURLResponse]()) { $0.append($1) }
        }
        let first = try #require(objects.first)
        #expect(objects.allSatisfy { $0 === first } && received.httpResponse === first)
        #expect(first.statusCode == 201 && first.url == URL(string: "http://example.test/files/1"))
        #expect(first.value(forHTTPHeaderField: "X-Twice") == "a, b", "repeated names joined as URLSession does")
        #expect(first.mimeType == "text/plain" && first.textEncodingName == "utf-8")
        #expect(first.expectedContentLength == 5 && first.suggestedFilename == "report.txt")
    }

    @Test func theIdiomaticPathsBuildNoResponse() async throws {
        let session = makeSession()
        let callback = await withCheckedContinuation { continuation in
            session.request(Server.http("/bench.json")).validate().responseData(queue: .global()) { response in
                continuation.resume(returning: (response.received?.isBuilt, response.error))
            }
        }
        #expect(callback.1 == nil && callback.0 == false, "validate().responseData built the HTTPURLResponse")
        let request = session.request(Server.http("/bench.json")).validate()
        let asyncResponse = await request.serializingDecodable([String: String].self).response
        #expect(asyncResponse.error == nil && asyncResponse.received?.isBuilt == false)
        #expect(request.receivedResponse?.isBuilt == false)
        // Reading it builds it, once, and the request, the response and the metrics share it.
        let object = try #require(asyncResponse.response)
        #expect(request.response === object && asyncResponse.metrics?.transactionMetrics.last?.response === object)
    }

    @Test func customHooksStillGetTheFullResponse() async throws {
        struct StatusAndType: DataResponseSerializerProtocol {
            func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> String {
                "\(response?.statusCode ?? 0) \(response?.mimeType ?? "-")"
            }
        }
        let session = makeSession()
        let seenByValidation = Protected<String?>(nil)
        let value = try await session.request(Server.http("/bench.json"))
            .validate { _, response, _ in
                seenByValidation.withLock { $0 = response.value(forHTTPHeaderField: "Content-Type") }
                return .success(())
            }
            .serializingResponse(using: StatusAndType()).value
        #expect(value == "200 application/json")
        #expect(seenByValidation.value == "application/json")
    }
}
