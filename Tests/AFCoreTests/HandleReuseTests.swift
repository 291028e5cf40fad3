import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The engine keeps a pooled curl handle's options between plain GETs and clears it after any
/// other transfer. One session's sequential requests run on the same handle, so each test checks
/// that nothing of a request reaches the next one.
@Suite(.timeLimit(.minutes(1))) struct HandleReuseTests {
    @Test func aPostLeavesNothingToTheNextGet() async throws {
        let session = makeSession()
        let post = try await session.request(Server.httpbin("/anything"), method: .post, parameters: ["secret": "body"],
                                             encoder: JSONParameterEncoder.default, headers: ["X-Only-First": "1"])
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(post.method == "POST")
        #expect(post.data?.contains("body") == true)

        let get = try await session.request(Server.httpbin("/anything")).serializingDecodable(HTTPBinResponse.self).value
        #expect(get.method == "GET")
        #expect(get.data == "")
        #expect(get.headers["X-Only-First"] == nil)
        #expect(get.headers["Content-Type"] == nil)
    }

    @Test func aHeadLeavesTheNextGetItsBody() async throws {
        let session = makeSession()
        let head = await session.request(Server.http("/bench.json"), method: .head).serializingData(emptyRequestMethods: [.head]).response
        #expect(head.response?.statusCode == 200)
        let get = try await session.request(Server.http("/bench.json")).serializingData().value
        #expect(get == Data(#"{"hello":"world"}"#.utf8))
    }

    @Test func credentialsDoNotOutliveTheirRequest() async throws {
        let session = makeSession()
        let authenticated = await session.request(Server.httpbin("/basic-auth/user/pass"))
            .authenticate(username: "user", password: "pass").serializingData().response
        #expect(authenticated.response?.statusCode == 200)

        let next = try await session.request(Server.httpbin("/headers")).serializingDecodable(HTTPBinResponse.self).value
        #expect(next.headers["Authorization"] == nil)
    }

    @Test func eachGetSendsItsOwnHeaders() async throws {
        let session = makeSession()
        for value in ["one", "two", "two"] {
            let echo = try await session.request(Server.httpbin("/headers"), headers: ["X-Value": value])
                .serializingDecodable(HTTPBinResponse.self).value
            #expect(echo.headers["X-Value"] == value)
        }
        let without = try await session.request(Server.httpbin("/headers")).serializingDecodable(HTTPBinResponse.self).value
        #expect(without.headers["X-Value"] == nil)
    }

    @Test func aChangedTimeoutAppliesAndIsUndone() async throws {
        let session = makeSession()
        #expect(await session.request(Server.httpbin("/get")).serializingData().response.error == nil)

        let short = await session.request(Server.httpbin("/delay/5")) { $0.timeoutInterval = 1 }.serializingData().response
        #expect((short.error?.underlyingError as? URLError)?.code == .timedOut)

        // Back to the default timeout: a response slower than the short one still arrives.
        let patient = await session.request(Server.httpbin("/delay/2")).serializingData().response
        #expect(patient.error == nil)
        #expect(patient.response?.statusCode == 200)
    }
}
