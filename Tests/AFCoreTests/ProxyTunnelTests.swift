@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// HTTPS through an HTTP proxy goes through a CONNECT tunnel (the fault server makes one). The
/// proxy's answer to CONNECT is not the response: no handler sees its head. A proxy that refuses
/// the tunnel fails the request with the reason.
@Suite(.timeLimit(.minutes(1))) struct ProxyTunnelTests {
    private let queue = DispatchQueue(label: "test.proxy-tunnel")

    private func tunnelSession() throws -> Session {
        let faults = try #require(URL(string: Server.faults("")))
        let configuration = URLSessionConfiguration.af.ephemeral
        configuration.connectionProxyDictionary = [
            "HTTPSEnable": 1, "HTTPSProxy": faults.host ?? "", "HTTPSPort": faults.port ?? 0,
        ]
        return makeSession(configuration: configuration)
    }

    @Test func onlyTheOriginsHeadIsSeen() async throws {
        let session = try tunnelSession()
        let heads = Protected<[HTTPURLResponse]>([])
        let response = await session.request(Server.https("/bench.json"))
            .onHTTPResponse(on: queue) { response in heads.withLock { $0.append(response) } }
            .validate()
            .serializingData().response
        #expect(response.error == nil, "\(String(describing: response.error))")
        #expect(response.data?.count == 17)
        queue.sync {}
        #expect(heads.value.map(\.statusCode) == [200])
        #expect(heads.value.first?.value(forHTTPHeaderField: "X-Proxy") == nil, "the proxy's CONNECT answer")
    }

    @Test func aRefusedTunnelFailsTheRequestWithTheReason() async throws {
        let session = try tunnelSession()
        let heads = Protected<[Int]>([])
        let response = await session.request("https://refused.invalid/get")
            .onHTTPResponse(on: queue) { response in heads.withLock { $0.append(response.statusCode) } }
            .serializingData().response
        queue.sync {}
        #expect(heads.value.isEmpty)
        #expect(response.response == nil)
        let error = try #require(response.error?.underlyingError as? URLError)
        #expect(error.code == .cannotConnectToHost)
        #expect(error.localizedDescription == "The proxy refused the tunnel to the host: it answered 403 to CONNECT")
    }
}
