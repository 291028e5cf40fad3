@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `Session(httpVersionPolicy:)`: HTTP/1.1 only, and cleartext HTTP/2 with prior knowledge.
@Suite(.timeLimit(.minutes(1))) struct HTTPVersionPolicyTests {
    // Each test holds its sessions for its whole run: a Session that goes away ends its requests.
    private let automatic: Session
    private let http1Only: Session
    private let priorKnowledge: Session

    init() {
        _ = TestServers.shared
        automatic = Session(httpVersionPolicy: .automatic)
        http1Only = Session(httpVersionPolicy: .http1Only)
        priorKnowledge = Session(httpVersionPolicy: .http2PriorKnowledge)
    }

    @Test func theDefaultIsAutomatic() {
        #expect(Session().httpVersionPolicy == .automatic)
    }

    @Test func priorKnowledgeSpeaksHTTP2OnCleartext() async throws {
        let session = priorKnowledge
        let first = await session.request(Server.h2c("/bench.json")).validate().serializingString().response
        #expect(first.value == #"{"hello":"world"}"#)
        #expect(first.metrics?.transactionMetrics.last?.networkProtocolName == "h2")

        // Sequential and concurrent requests after it: on a libcurl that reuses h2c connections
        // they share the first one; on one that breaks them (before 8.0), each gets its own.
        var responses = [await session.request(Server.h2c("/get")).validate().serializingData().response]
        responses += await withTaskGroup(of: AFDataResponse<Data>.self) { group in
            for _ in 0..<8 {
                group.addTask { await session.request(Server.h2c("/get")).validate().serializingData().response }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(responses.allSatisfy { $0.error == nil }, "\(responses.compactMap(\.error))")
        let transactions = responses.compactMap { $0.metrics?.transactionMetrics.last }
        #expect(transactions.count == 9)
        #expect(transactions.allSatisfy { $0.networkProtocolName == "h2" })
        let reused = LibcurlQuirks.breaksReusedPriorKnowledgeConnections == false
        #expect(transactions.allSatisfy { $0.isReusedConnection == reused })
    }

    @Test func priorKnowledgeLeavesHTTPSToALPN() async throws {
        let response = await priorKnowledge.request(Server.https("/bench.json")).serializingData().response
        #expect(response.error == nil)
        #expect(response.metrics?.transactionMetrics.last?.networkProtocolName == "h2")
    }

    @Test func http1OnlyStaysOnHTTP1OverTLS() async throws {
        let response = await http1Only.request(Server.https("/bench.json")).serializingData().response
        #expect(response.error == nil)
        #expect(response.metrics?.transactionMetrics.last?.networkProtocolName == "http/1.1")
    }

    @Test func anHTTP1ClientAtACleartextHTTP2ServerFailsWithAnError() async throws {
        // nginx reads an HTTP/1.1 request as a broken connection preface and answers with frames.
        let response = await automatic.request(Server.h2c("/bench.json")).serializingData().response
        let error = try #require(response.error)
        #expect(error.isSessionTaskError)
        #expect((error.underlyingError as? URLError)?.code == .badServerResponse, "\(error)")
        #expect(response.response == nil)
    }

    @Test func priorKnowledgeAtAnHTTP1OnlyServerFailsWithAnError() async throws {
        // gunicorn closes the connection on the HTTP/2 preface.
        let response = await priorKnowledge.request(Server.httpbin("/get")).serializingData().response
        let error = try #require(response.error)
        #expect(error.isSessionTaskError)
        #expect((error.underlyingError as? URLError)?.code == .networkConnectionLost, "\(error)")
    }

    @Test func cURLDescriptionsCarryThePolicy() async throws {
        /// The cURL description of a finished request to `url` on `session`.
        func description(_ session: Session, _ url: String) async -> String {
            let request = session.request(url)
            _ = await request.serializingData().response
            return request.cURLDescription()
        }
        #expect(await description(priorKnowledge, Server.h2c("/get")).contains("--http2-prior-knowledge"))
        #expect(await !description(priorKnowledge, Server.https("/get")).contains("--http2"))
        #expect(await description(http1Only, Server.https("/get")).contains("--http1.1"))
        #expect(await !description(automatic, Server.https("/get")).contains("--http"))
    }
}
