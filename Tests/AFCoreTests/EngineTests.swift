@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The curl engine: protocols, connection reuse, multiplexing, decompression, redirects, cookies.
@Suite(.timeLimit(.minutes(1))) struct EngineTests {
    @Test func http2IsNegotiatedAndMultiplexed() async throws {
        let session = makeSession()
        // Warm one connection up so every later stream has a connection to share.
        let first = await session.request(Server.https("/bench.json")).serializingData().response
        #expect(first.metrics?.transactionMetrics.last?.networkProtocolName == "h2")

        let responses = await withTaskGroup(of: AFDataResponse<Data>.self) { group in
            for _ in 0..<8 {
                group.addTask { await session.request(Server.https("/get")).serializingData().response }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let transactions = responses.compactMap { $0.metrics?.transactionMetrics.last }
        #expect(transactions.count == 8)
        #expect(transactions.allSatisfy { $0.networkProtocolName == "h2" && $0.isReusedConnection })
        let ports = Set(transactions.compactMap(\.localPort))
        #expect(ports == [first.metrics?.transactionMetrics.last?.localPort].compactMap { $0 }.reduce(into: Set<Int>()) { $0.insert($1) })
    }

    /// The engine takes a burst of HTTP/1 starts a few per pass (see `CurlEngine.commandsPerPass`):
    /// the ones left behind still run, on their own connections, without another wake-up. The
    /// 40 setups are queued behind a held rootQueue, so their starts reach the engine together.
    @Test func aBurstOfHTTP1RequestsAllRunAtOnce() async throws {
        let configuration = URLSessionConfiguration.af.default
        configuration.httpMaximumConnectionsPerHost = 40
        let root = DispatchQueue(label: "test.heldRoot")
        let session = makeSession(configuration: configuration, rootQueue: root)
        let longpoll = TestServers.shared.all["longpoll"]!
        // One finished HTTP/1.1 transfer first, so the engine splits the burst.
        _ = await session.request(longpoll + "/gather?count=1&key=\(UUID().uuidString)").serializingData().response
        root.suspend()
        // The server answers none of them until all 40 are held at once (or 20 s have passed):
        // no connection is free for another to reuse, and one left behind holds up all of them.
        let url = longpoll + "/gather?count=40&ms=20000&key=\(UUID().uuidString)"
        let tasks = (0..<40).map { _ in session.request(url).serializingString() }
        root.resume()
        var responses: [AFDataResponse<String>] = []
        for task in tasks { responses.append(await task.response) }
        #expect(responses.allSatisfy { $0.value == #"{"gathered": true}"# }, "all 40 were held at once")
        // All at once: each on a connection of its own.
        let ports = Set(responses.compactMap { $0.metrics?.transactionMetrics.last?.localPort })
        #expect(ports.count == 40)
    }

    @Test func http1KeepAliveReusesTheConnection() async throws {
        let session = makeSession()
        let first = await session.request(Server.http("/bench.json")).serializingData().response
        let second = await session.request(Server.http("/bench.json")).serializingData().response
        let a = try #require(first.metrics?.transactionMetrics.last)
        let b = try #require(second.metrics?.transactionMetrics.last)
        #expect(a.networkProtocolName == "http/1.1")
        #expect(!a.isReusedConnection)
        #expect(b.isReusedConnection)
        #expect(a.localPort == b.localPort)
        #expect(b.remoteAddress == "127.0.0.1")
        #expect(b.countOfResponseBodyBytesReceived == 17)
        // The other figures read from curl at each transfer's end.
        #expect(a.remotePort == URL(string: Server.http("/"))?.port)
        #expect(a.localAddress == "127.0.0.1")
        #expect(a.countOfResponseHeaderBytesReceived > 17)
        #expect((a.connectDuration ?? -1) >= 0)
        #expect(a.totalDuration > 0 && (a.timeToFirstByte ?? -1) >= 0)
        #expect(b.remoteAddress == a.remoteAddress && b.localAddress == a.localAddress)
    }

    /// Each coding arrives as such (the response's Content-Encoding) and is decoded: httpbin's
    /// JSON says which coding it applied.
    @Test(arguments: [("/gzip", "gzip", "gzipped"), ("/deflate", "deflate", "deflated"), ("/brotli", "br", "brotli")])
    func decompression(path: String, coding: String, appliedKey: String) async throws {
        let session = makeSession()
        let response = await session.request(Server.httpbin(path)).serializingData().response
        #expect(response.response?.value(forHTTPHeaderField: "Content-Encoding") == coding)
        let object = try #require(try JSONSerialization.jsonObject(with: response.result.get()) as? [String: Any])
        #expect(object[appliedKey] as? Bool == true)
        let sent = try #require(object["headers"] as? [String: String])["Accept-Encoding"] ?? ""
        let offered = sent.split(separator: ",").map { $0.split(separator: ";")[0].trimmingCharacters(in: .whitespaces) }
        #expect(offered.contains(coding), "the request offered \(sent)")
    }

    @Test func redirectsAreFollowed() async throws {
        let session = makeSession()
        let response = await session.request(Server.httpbin("/redirect/3")).serializingData().response
        #expect(response.response?.statusCode == 200)
        #expect(response.response?.url?.path == "/get")
        #expect(response.metrics?.redirectCount == 3)
        #expect(response.metrics?.transactionMetrics.count == 4)
    }

    @Test func tooManyRedirectsFail() async throws {
        let session = makeSession()
        let error = await session.request(Server.httpbin("/redirect/20")).serializingData().response.error
        #expect(error?.urlErrorCode == .httpTooManyRedirects)
    }

    @Test func postBecomesGetOn302() async throws {
        let session = makeSession()
        let target = Server.httpbin("/anything").addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let value = try await session.request(Server.httpbin("/redirect-to?url=\(target)&status_code=302"),
                                              method: .post, parameters: ["a": "1"])
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(value.method == "GET")
        let kept = try await session.request(Server.httpbin("/redirect-to?url=\(target)&status_code=307"),
                                             method: .post, parameters: ["a": "1"])
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(kept.method == "POST")
        #expect(kept.form == ["a": "1"])
    }

    @Test func authorizationIsDroppedAcrossOrigins() async throws {
        // Ephemeral: cookies other tests left in the shared storage would be sent legitimately.
        let session = makeSession(configuration: .af.ephemeral)
        // httpbin (gunicorn) and nginx listen on different ports: different origins.
        let target = Server.http("/headers").addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let value = try await session.request(Server.httpbin("/redirect-to?url=\(target)"),
                                              headers: [.authorization(bearerToken: "secret"), .accept("x/y"),
                                                        HTTPHeader(name: "Cookie", value: "session=1")])
            .redirect(using: Redirector.follow)
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(value.headers["Authorization"] == nil)
        #expect(value.headers["Cookie"] == nil)
        #expect(value.headers["Accept"] == "x/y")

        let sameOrigin = try await session.request(Server.httpbin("/redirect-to?url=/headers"),
                                                   headers: [.authorization(bearerToken: "secret")])
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(sameOrigin.headers["Authorization"] == "Bearer secret")
    }

    @Test func cookiesAreStoredAndSent() async throws {
        let configuration = URLSessionConfiguration.af.ephemeral
        #expect(configuration.httpCookieStorage != nil)
        let session = makeSession(configuration: configuration)
        _ = await session.request(Server.httpbin("/cookies/set?flavour=oat")).serializingData().response
        let value = try await session.request(Server.httpbin("/headers")).serializingDecodable(HTTPBinResponse.self).value
        #expect(value.headers["Cookie"] == "flavour=oat")
        // A Cookie header of the request's own, in whatever case, goes as it is, without the stored ones.
        let own = try await session.request(Server.httpbin("/headers"), headers: [HTTPHeader(name: "cookie", value: "mine=1")])
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(own.headers["Cookie"] == "mine=1")
    }

    @Test func suspendAndResume() async throws {
        // The adapter holds the request until it has been suspended: however long this thread
        // stalls between resume() and suspend(), the request cannot have finished in between.
        let suspended = Gate(opensAfter: 1)
        let holdUntilSuspended = Adapter { urlRequest, _, completion in
            DispatchQueue.global().async {
                suspended.wait()
                completion(.success(urlRequest))
            }
        }
        let session = makeSession(startRequestsImmediately: false, interceptor: holdUntilSuspended)
        let request = session.request(Server.httpbin("/get"))
        let task = request.serializingData()
        #expect(request.isInitialized)
        request.resume()
        request.suspend()
        #expect(request.isSuspended)
        suspended.arrive()
        request.resume()
        let response = await task.response
        #expect(response.response?.statusCode == 200)
        #expect(request.isFinished)
    }

    /// resume() then suspend() from another thread while rootQueue is busy: the task ends up
    /// suspended, as the request is (the queued resume used to run after the suspend).
    @Test func aResumeThenSuspendLeavesTheTaskSuspended() async throws {
        let created = OneShot()
        let monitor = ClosureEventMonitor(queue: DispatchQueue(label: "test.task-created"))
        monitor.requestDidCreateTask = { _, _ in created.fire() }
        let session = makeSession(eventMonitors: [monitor])
        let request = session.request(Server.faults("/stall"))
        request.resume()
        await created.wait()
        request.suspend()
        session.rootQueue.sync {}
        let task = try #require(request.mutableState.withLock { $0.tasks.last })
        #expect(task.state == .suspended)

        let busy = DispatchSemaphore(value: 0)
        session.rootQueue.async { busy.wait() }
        request.resume()
        request.suspend()
        busy.signal()
        session.rootQueue.sync {}
        #expect(request.isSuspended)
        #expect(task.state == .suspended)

        request.resume()
        session.rootQueue.sync {}
        #expect(task.state == .running)
        request.cancel()
        #expect(await request.serializingData().response.error?.isExplicitlyCancelledError == true)
    }

    @Test func eagerSetupBuildsTheTaskBeforeResume() async throws {
        let session = makeSession(startRequestsImmediately: false, requestSetup: .eager)
        let request = session.request(Server.httpbin("/get"))
        let created: URLSessionTask = await response { done in request.onURLSessionTaskCreation(on: .main) { done($0) } }
        #expect(created.state == .suspended)
        #expect(request.isInitialized)
        let response = await request.resume().serializingData().response
        #expect(response.response?.statusCode == 200)
    }
}
