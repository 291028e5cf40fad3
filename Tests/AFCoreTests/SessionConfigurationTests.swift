@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// What a Session takes from its configuration and environment: limits, timeouts, proxies.
@Suite(.timeLimit(.minutes(1))) struct SessionConfigurationTests {
    private func session(configuration: URLSessionConfiguration = URLSessionConfiguration.af.default,
                         environment: [String: String]) -> Session {
        _ = TestServers.shared
        var environment = environment
        environment["SSL_CERT_FILE"] = ProcessInfo.processInfo.environment["SSL_CERT_FILE"]
        return Session(configuration: configuration, rootQueue: DispatchQueue(label: "test.root"),
                       startRequestsImmediately: true, requestSetup: .lazy,
                       requestQueue: nil, serializationQueue: nil, environment: environment)
    }

    @Test func resourceTimeoutEndsATransferThatKeepsFlowing() async {
        let configuration = URLSessionConfiguration.af.default
        configuration.timeoutIntervalForResource = 1
        let session = makeSession(configuration: configuration)
        // Bytes keep arriving (no idle timeout) but the whole exchange needs 4 s.
        let error = await session.request(Server.httpbin("/drip?duration=4&numbytes=8")).serializingData().response.error
        #expect(error?.urlErrorCode == .timedOut)
    }

    @Test(arguments: [1, 4])
    func maximumConnectionsPerHost(limit: Int) async {
        let configuration = URLSessionConfiguration.af.default
        configuration.httpMaximumConnectionsPerHost = limit
        let session = makeSession(configuration: configuration)
        let responses = await withTaskGroup(of: AFDataResponse<Data>.self) { group in
            for _ in 0..<4 {
                group.addTask { await session.request(Server.httpbin("/delay/0.3")).serializingData().response }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let ports = Set(responses.compactMap { $0.metrics?.transactionMetrics.last?.localPort })
        let allSucceeded = responses.allSatisfy { $0.response?.statusCode == 200 }
        #expect(allSucceeded)
        if limit == 1 {
            #expect(ports.count == 1)
        } else {
            #expect(ports.count > 1 && ports.count <= limit)
        }
    }

    @Test func httpProxyFromTheEnvironment() async throws {
        // nginx forwards absolute-form requests to httpbin: a host that does not resolve answers.
        let session = session(environment: ["http_proxy": Server.http("")])
        let echo = try await session.request("http://af-proxy-check.invalid/get")
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(echo.headers["Host"] == "af-proxy-check.invalid")
    }

    @Test func noProxyHostsConnectDirectly() async {
        let session = session(environment: ["http_proxy": "http://127.0.0.1:1", "no_proxy": "127.0.0.1"])
        let response = await session.request(Server.httpbin("/get")).serializingData().response
        #expect(response.response?.statusCode == 200)
    }

    @Test func upperCaseNoProxyHostsConnectDirectlyToo() async {
        let session = session(environment: ["http_proxy": "http://127.0.0.1:1", "NO_PROXY": "example.invalid,127.0.0.1"])
        let response = await session.request(Server.httpbin("/get")).serializingData().response
        #expect(response.response?.statusCode == 200)
    }

    @Test func aHostNotInNoProxyStillGoesThroughTheProxy() async {
        // The proxy refuses connections: a request sent through it fails.
        let session = session(environment: ["http_proxy": "http://127.0.0.1:1", "no_proxy": "example.invalid"])
        let response = await session.request(Server.httpbin("/get")).serializingData().response
        #expect(response.response == nil)
        #expect(response.error?.isSessionTaskError == true)
    }

    @Test func upperCaseHTTPProxyIsIgnored() async {
        let session = session(environment: ["HTTP_PROXY": "http://127.0.0.1:1"])
        let response = await session.request(Server.httpbin("/get")).serializingData().response
        #expect(response.response?.statusCode == 200)
    }

    @Test func proxyFromTheConnectionProxyDictionary() async throws {
        let nginx = try #require(URL(string: Server.http("")))
        let configuration = URLSessionConfiguration.af.default
        configuration.connectionProxyDictionary = [
            "HTTPEnable": 1, "HTTPProxy": nginx.host ?? "", "HTTPPort": nginx.port ?? 0,
        ]
        // The dictionary wins over the environment.
        let session = session(configuration: configuration, environment: ["http_proxy": "http://127.0.0.1:1"])
        let echo = try await session.request("http://af-proxy-check.invalid/get")
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(echo.headers["Host"] == "af-proxy-check.invalid")
    }

    @Test func proxySettingsParsing() {
        let environment = ProxySettings(dictionary: nil, environment: [
            "ALL_PROXY": "http://all:1", "https_proxy": "http://secure:2", "NO_PROXY": "localhost,.internal",
        ])
        #expect(environment.proxy(forScheme: "http") == "http://all:1")
        #expect(environment.proxy(forScheme: "HTTPS") == "http://secure:2")
        #expect(environment.noProxy == "localhost,.internal")

        let none = ProxySettings(dictionary: [:], environment: [:])
        #expect(none.proxy(forScheme: "http") == "")
        #expect(none.proxy(forScheme: "https") == "")

        let dictionary = ProxySettings(dictionary: ["HTTPSEnable": true, "HTTPSProxy": "corp", "HTTPSPort": 3128,
                                                    "HTTPEnable": false, "HTTPProxy": "unused",
                                                    "ExceptionsList": ["a.example", "b.example"]],
                                       environment: ["http_proxy": "http://env:1"])
        #expect(dictionary.proxy(forScheme: "https") == "http://corp:3128")
        #expect(dictionary.proxy(forScheme: "http") == "")
        #expect(dictionary.noProxy == "a.example,b.example")
    }

    /// AF's own settings share `connectionProxyDictionary`; they leave the proxy variables in force.
    @Test func afSettingsKeepTheEnvironmentsProxies() {
        let configuration = URLSessionConfiguration.af.default
        configuration.af.waitsForConnectivity = true
        configuration.af.unixSocketPath = "/run/example.sock"
        let settings = ProxySettings(dictionary: configuration.connectionProxyDictionary,
                                     environment: ["https_proxy": "http://env:8"])
        #expect(settings.proxy(forScheme: "https") == "http://env:8")
    }
}

/// Session-wide operations on requests: listing, cancelling, and the Session going away.
@Suite(.timeLimit(.minutes(1))) struct SessionRequestsTests {
    /// Three requests to a server that never answers, once each of them runs (so a cancellation
    /// hits live transfers), with the tasks awaiting their responses.
    private func runningStalledRequests(in session: Session) async -> ([DataRequest], [DataTask<Data>]) {
        let requests = (0..<3).map { _ in session.request(Server.faults("/stall")) }
        let tasks = requests.map { $0.serializingData() }
        for request in requests {
            _ = await response { done in request.onURLSessionTaskCreation(on: .main) { done($0) } }
        }
        return (requests, tasks)
    }

    private func listed(by session: Session) async -> Set<Request> {
        await response { done in session.withAllRequests { done($0) } }
    }

    @Test func withAllRequestsAndCancelAllRequests() async {
        let session = makeSession()
        let (requests, tasks) = await runningStalledRequests(in: session)
        #expect(await listed(by: session) == Set(requests))

        let queue = DispatchQueue(label: "test.cancel-all")
        let marker = QueueMarker(queue, name: "cancel-all")
        let onQueue: Bool = await response { done in
            session.cancelAllRequests(completingOnQueue: queue) { done(marker.isCurrent) }
        }
        #expect(onQueue)
        var errors: [AFError?] = []
        for task in tasks { errors.append(await task.response.error) }
        let allCancelled = errors.allSatisfy { $0?.isExplicitlyCancelledError == true }
        #expect(allCancelled)
        let allMarkedCancelled = requests.allSatisfy(\.isCancelled)
        #expect(allMarkedCancelled)
    }

    @Test func theListingFollowsRequestsEndingInAnyOrder() async {
        // The session keeps its active requests in a list each request knows its place in; the
        // last one moves into the place of one that ends. Ending the first, then the one moved
        // into its place, then the last exercises each move.
        let session = makeSession()
        let (requests, tasks) = await runningStalledRequests(in: session)
        for (index, ending) in [0, 2, 1].enumerated() {
            requests[ending].cancel()
            _ = await tasks[ending].response
            let left = [0, 2, 1].dropFirst(index + 1).map { requests[$0] as Request }
            #expect(await listed(by: session) == Set(left), "after ending request \(ending)")
        }
        #expect(session.hasNoActiveRequests)
    }

    @Test func aRequestNotStartedEndsWhenItsSessionIsGone() async {
        // The session is released right after making the request: its response handler must
        // still be called, with sessionDeinitialized, not wait forever.
        let error = await makeSession().request(Server.httpbin("/get")).serializingData().response.error
        guard case .sessionDeinitialized = error else {
            Issue.record("expected sessionDeinitialized, got \(String(describing: error))")
            return
        }
    }

    @Test func requestsEndWhenTheSessionGoesAway() async {
        var session: Session? = makeSession()
        let request = session!.request(Server.faults("/stall"))
        let task = request.serializingData()
        _ = await response { done in request.onURLSessionTaskCreation(on: .main) { done($0) } }
        session = nil
        let error = await task.response.error
        guard case .sessionDeinitialized = error else {
            Issue.record("expected sessionDeinitialized, got \(String(describing: error))")
            return
        }
    }
}
