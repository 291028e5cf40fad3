@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Serializers as pure functions over request, response, data and error.
@Suite struct ResponseSerializationTests {
    let get = URLRequest(url: URL(string: "https://example.com")!)
    func response(_ code: Int, _ headers: [String: String] = [:]) -> HTTPURLResponse {
        HTTPURLResponse(url: URL(string: "https://example.com")!, statusCode: code, httpVersion: "HTTP/1.1",
                        headerFields: headers)!
    }

    @Test func emptyBodies() throws {
        let serializer = DataResponseSerializer()
        #expect(try serializer.serialize(request: get, response: response(204), data: nil, error: nil) == Data())
        var head = get
        head.method = .head
        #expect(try serializer.serialize(request: head, response: response(200), data: nil, error: nil) == Data())
        let error = #expect(throws: AFError.self) {
            try serializer.serialize(request: get, response: response(200), data: Data(), error: nil)
        }
        guard case .responseSerializationFailed(.inputDataNilOrZeroLength) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        let custom = DataResponseSerializer(emptyResponseCodes: [200])
        #expect(try custom.serialize(request: get, response: response(200), data: nil, error: nil) == Data())
    }

    @Test func upstreamErrorIsRethrown() {
        #expect(throws: AFError.self) {
            try StringResponseSerializer().serialize(request: nil, response: nil, data: Data("x".utf8),
                                                     error: AFError.explicitlyCancelled)
        }
    }

    @Test func googleXSSIPreprocessor() throws {
        let serializer = StringResponseSerializer(dataPreprocessor: GoogleXSSIPreprocessor())
        let value = try serializer.serialize(request: get, response: response(200), data: Data(")]}',\nabc".utf8), error: nil)
        #expect(value == "abc")
    }

    @Test func stringCharsets() throws {
        let latin1 = Data([0x63, 0x61, 0x66, 0xE9])
        let fallback = try StringResponseSerializer().serialize(request: get, response: response(200), data: latin1, error: nil)
        #expect(fallback == "café")
        let utf8 = try StringResponseSerializer().serialize(
            request: get, response: response(200, ["Content-Type": "text/plain; charset=utf-8"]),
            data: Data("café".utf8), error: nil)
        #expect(utf8 == "café")
        #expect(throws: AFError.self) {
            try StringResponseSerializer(encoding: .utf8).serialize(request: get, response: response(200), data: latin1, error: nil)
        }
    }

    @Test func decodableEmptyValues() throws {
        let empty = try DecodableResponseSerializer<Empty>().serialize(request: get, response: response(204), data: nil, error: nil)
        #expect(empty == Empty.value)
        let error = #expect(throws: AFError.self) {
            try DecodableResponseSerializer<[String]>().serialize(request: get, response: response(204), data: nil, error: nil)
        }
        guard case .responseSerializationFailed(.invalidEmptyResponse) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
    }

    @Test func responseTransforms() {
        let base = DataResponse<Int, AFError>(request: nil, response: nil, data: nil, metrics: nil,
                                              serializationDuration: 0, result: .success(2))
        #expect(base.map { $0 * 2 }.value == 4)
        #expect(base.tryMap { _ in throw URLError(.badURL) }.error is URLError)
        let failed = DataResponse<Int, AFError>(request: nil, response: nil, data: nil, metrics: nil,
                                                serializationDuration: 0, result: .failure(.explicitlyCancelled))
        #expect(failed.mapError { _ in URLError(.cancelled) }.error?.code == .cancelled)
        #expect(failed.description.contains("failure"))
    }
}

/// Validation and handler queues against httpbin.
@Suite(.timeLimit(.minutes(1))) struct ValidationTests {
    @Test func statusCodeValidation() async {
        let session = makeSession()
        let error = await session.request(Server.httpbin("/status/404")).validate().serializingData().response.error
        #expect(error?.isResponseValidationError == true)
        #expect(error?.responseCode == 404)
        let ok = await session.request(Server.httpbin("/status/404")).validate(statusCode: [404])
            .serializingData(emptyResponseCodes: [404]).response
        #expect(ok.error == nil)
    }

    @Test func contentTypeValidation() async {
        let session = makeSession()
        let error = await session.request(Server.httpbin("/get")).validate(contentType: ["text/html", "image/png", "text/css"])
            .serializingData().response.error
        #expect(error?.responseContentType == "application/json")
        #expect(error?.acceptableContentTypes == ["image/png", "text/css", "text/html"], "sorted, as Alamofire's")
        let wildcard = await session.request(Server.httpbin("/get")).validate(contentType: ["application/*"])
            .serializingData().response
        #expect(wildcard.error == nil)
        let accept = await session.request(Server.httpbin("/xml"), headers: [.accept("application/json")]).validate()
            .serializingData().response
        #expect(accept.error?.responseContentType == "application/xml")
    }

    @Test func customValidation() async {
        struct Rejected: Error {}
        let session = makeSession()
        let error = await session.request(Server.httpbin("/get")).validate { _, _, _ in .failure(Rejected()) }
            .serializingData().response.error
        guard case .responseValidationFailed(.customValidationFailed(let underlying)) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(underlying is Rejected)
    }

    @Test func handlersRunOnTheirQueue() async {
        let session = makeSession()
        let queue = DispatchQueue(label: "af.tests.handler")
        let marker = QueueMarker(queue, name: "handler")
        let onQueue: Bool = await response { done in
            session.request(Server.httpbin("/get")).responseString(queue: queue) { _ in done(marker.isCurrent) }
        }
        #expect(onQueue)
    }

    @Test func severalHandlersAndLateHandlers() async {
        let session = makeSession()
        let request = session.request(Server.httpbin("/get"))
        async let data = request.serializingData().response
        async let string = request.serializingString().response
        #expect(await data.value?.isEmpty == false)
        #expect(await string.value?.contains("/get") == true)
        // A handler added after the request finished runs with the same outcome.
        let late = await request.serializingData().response
        #expect(late.response?.statusCode == 200)
        #expect(request.isFinished)
    }
}
