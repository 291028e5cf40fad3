@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Making requests: methods, parameters, encoders, headers and request modifiers, against httpbin.
@Suite(.timeLimit(.minutes(1))) struct RequestTests {
    struct Login: Encodable, Sendable {
        let login: String
        let password: String
    }

    @Test(arguments: [HTTPMethod.get, .post, .put, .patch, .delete])
    func methodsReachHTTPBin(method: HTTPMethod) async throws {
        let session = makeSession()
        let path = "/" + method.rawValue.lowercased()
        let response = await session.request(Server.httpbin(path), method: method)
            .serializingDecodable(HTTPBinResponse.self).response
        #expect(response.response?.statusCode == 200)
        #expect(response.value?.url?.hasSuffix(path) == true)
        #expect(response.request?.httpMethod == method.rawValue)
    }

    @Test func headRequestHasEmptyBody() async throws {
        let session = makeSession()
        let response = await session.request(Server.httpbin("/get"), method: .head).serializingData().response
        #expect(response.response?.statusCode == 200)
        #expect(response.value == Data())
    }

    @Test func dictionaryParametersInQueryForGET() async throws {
        let session = makeSession()
        let value = try await session.request(Server.httpbin("/get"), parameters: ["foo": "bar", "n": 1])
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(value.args == ["foo": "bar", "n": "1"])
    }

    @Test func dictionaryParametersAsJSONBody() async throws {
        let session = makeSession()
        let value = try await session.request(Server.httpbin("/post"), method: .post,
                                              parameters: ["foo": "bar", "list": [1, 2]], encoding: JSONEncoding.default)
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(value.json?["foo"]?.description == "bar")
        #expect(value.json?["list"]?.description == #"["1", "2"]"#)
        #expect(value.headers["Content-Type"] == "application/json")
    }

    @Test func dictionaryParametersAsFormBody() async throws {
        let session = makeSession()
        let value = try await session.request(Server.httpbin("/post"), method: .post, parameters: ["a": "b c"])
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(value.form == ["a": "b c"])
    }

    @Test func encodableParametersWithEncoders() async throws {
        let session = makeSession()
        let login = Login(login: "test@test.test", password: "testPassword")
        let json = try await session.request(Server.httpbin("/post"), method: .post, parameters: login,
                                             encoder: JSONParameterEncoder.default)
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(json.json?["login"]?.description == "test@test.test")

        let form = try await session.request(Server.httpbin("/post"), method: .post, parameters: login)
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(form.form == ["login": "test@test.test", "password": "testPassword"])

        let query = try await session.request(Server.httpbin("/get"), parameters: login, encoder: .urlEncodedForm)
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(query.args?["login"] == "test@test.test")
    }

    @Test func headersAndDefaultHeadersAreSent() async throws {
        let session = makeSession()
        let headers: HTTPHeaders = [.authorization(username: "user", password: "pass"), .accept("application/json")]
        let value = try await session.request(Server.httpbin("/headers"), headers: headers)
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(value.headers["Authorization"] == "Basic dXNlcjpwYXNz")
        #expect(value.headers["Accept"] == "application/json")
        #expect(value.headers["User-Agent"]?.contains("AF/") == true)
        #expect(value.headers["Accept-Language"] != nil)
        #expect(value.headers["Accept-Encoding"] == "br;q=1.0, gzip;q=0.9, deflate;q=0.8")
    }

    @Test func requestHeadersOverrideSessionHeaders() async throws {
        let configuration = URLSessionConfiguration.af.default
        configuration.headers.update(.userAgent("session-agent"))
        configuration.headers.update(name: "X-Session", value: "1")
        let session = makeSession(configuration: configuration)
        let value = try await session.request(Server.httpbin("/headers"), headers: [.userAgent("request-agent")])
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(value.headers["User-Agent"] == "request-agent")
        #expect(value.headers["X-Session"] == "1")
        // Names compare case-insensitively: a lower-case request header still replaces the session's.
        let lower = try await session.request(Server.httpbin("/headers"), headers: ["user-agent": "lower-agent"])
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(lower.headers["User-Agent"] == "lower-agent")
    }

    @Test func requestModifierRunsBeforeEncoding() async throws {
        let session = makeSession()
        let request = session.request(Server.httpbin("/get"), parameters: ["a": "1"]) { request in
            request.timeoutInterval = 5
            request.headers.add(name: "X-Modified", value: "yes")
        }
        let value = try await request.serializingDecodable(HTTPBinResponse.self).value
        #expect(value.headers["X-Modified"] == "yes")
        #expect(request.request?.timeoutInterval == 5)
        #expect(value.args == ["a": "1"])
    }

    @Test func prebuiltURLRequest() async throws {
        let session = makeSession()
        var urlRequest = try URLRequest(url: Server.httpbin("/anything"), method: .put)
        urlRequest.httpBody = Data("payload".utf8)
        urlRequest.headers.update(.contentType("text/plain"))
        let value = try await session.request(urlRequest).serializingDecodable(HTTPBinResponse.self).value
        #expect(value.data == "payload")
        #expect(value.method == "PUT")
    }

    @Test func largeBodyIsSentWhole() async throws {
        let session = makeSession()
        let body = String(repeating: "x", count: 3 << 20)
        var urlRequest = try URLRequest(url: Server.httpbin("/anything"), method: .post)
        urlRequest.httpBody = Data(body.utf8)
        urlRequest.headers.update(.contentType("text/plain"))
        let value = try await session.request(urlRequest).serializingDecodable(HTTPBinResponse.self).value
        #expect(value.data?.count == body.count)
    }

    @Test func onURLRequestCreationAndRequestsList() async throws {
        let session = makeSession()
        let seen = Protected<[URLRequest]>([])
        let request = session.request(Server.httpbin("/get"))
            .onURLRequestCreation(on: .main) { request in seen.withLock { $0.append(request) } }
        _ = await request.serializingData().response
        let replayed: URLRequest = await response { done in
            request.onURLRequestCreation(on: .main) { done($0) }
        }
        #expect(replayed.url == request.request?.url)
        #expect(request.requests.count == 1)
        #expect(request.firstRequest == request.lastRequest)
        #expect(request.task?.state == .completed)
        #expect(request.description.hasPrefix("GET \(Server.httpbin("/get")) (200)"))
        #expect(session.hasNoActiveRequests)
    }

    @Test func cURLDescription() async throws {
        let session = makeSession()
        let request = session.request(Server.httpbin("/post"), method: .post, parameters: ["a": "b"],
                                      encoding: JSONEncoding.default, headers: [.accept("x/y")])
        let finished = request.serializingData()
        let description: String = await response { done in request.cURLDescription(calling: done) }
        #expect(description.hasPrefix("$ curl -v \\\n\t-X POST"))
        #expect(description.contains(#"-H "Accept: x/y""#))
        #expect(description.contains(#"-H "User-Agent: "#))
        #expect(description.contains(#"-d "{\"a\":\"b\"}""#))
        #expect(description.hasSuffix("\"\(Server.httpbin("/post"))\""))
        _ = await finished.response
    }
}

/// What a monitor or observer told that a request finished finds, as with Alamofire.
@Suite(.timeLimit(.minutes(1))) struct FinishedStateTests {
    /// A request with no response handler is `.finished` by the time its `didFinish` is posted.
    /// The notification is posted on the request's own queue, at once, so the observer reads
    /// the state at the very point the request announces its end.
    @Test func aRequestWithoutSerializersIsFinishedWhenItSaysSo() async throws {
        let session = makeSession()
        let request = session.request(Server.httpbin("/get"), shouldAutomaticallyResume: false)
        try #require(request.ownsQueue)
        let seen: Request.State = await withCheckedContinuation { continuation in
            let observer = Protected<(any NSObjectProtocol)?>(nil)
            observer.withLock { slot in
                slot = NotificationCenter.default.addObserver(forName: Request.didFinishNotification,
                                                              object: nil, queue: nil) { note in
                    guard note.request === request else { return }
                    observer.withLock { $0.map(NotificationCenter.default.removeObserver); $0 = nil }
                    continuation.resume(returning: request.state)
                }
            }
            request.resume()
        }
        #expect(seen == .finished)
    }
}

/// Progress handlers on the session's root queue see the whole body before the request completes,
/// as with Alamofire, whose completions pass through that queue.
@Suite(.timeLimit(.minutes(1))) struct RootQueueProgressTests {
    /// A request alone in a session without hooks runs on a queue of its own, not on `rootQueue`.
    /// The root queue is held until the request's completion has left that queue: the response
    /// must still wait for the progress handler's last call.
    @Test func theLastUpdateComesBeforeTheResponseWhileTheRootQueueIsBusy() async throws {
        let session = makeSession()
        let responseQueue = DispatchQueue(label: "test.response")
        let request = session.request(Server.httpbin("/bytes/1024"))
        try #require(request.ownsQueue)
        let rootQueueHeld = DispatchSemaphore(value: 0)
        session.rootQueue.async { rootQueueHeld.wait() }
        // Posted on the request's queue as it finishes, before its serializers run: a block
        // queued there then runs once the completion left it, and releases the root queue from
        // the response's queue, after a response already sent there.
        let observer = NotificationCenter.default.addObserver(forName: Request.didFinishNotification,
                                                              object: nil, queue: nil) { note in
            guard note.request === request else { return }
            request.underlyingQueue.async { responseQueue.async { rootQueueHeld.signal() } }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let fractions = Protected<[Double]>([])
        let seen: [Double] = await withCheckedContinuation { continuation in
            request
                .downloadProgress(queue: session.rootQueue) { progress in
                    fractions.withLock { $0.append(progress.fractionCompleted) }
                }
                .response(queue: responseQueue) { _ in
                    continuation.resume(returning: fractions.value)
                }
        }
        #expect(seen.last == 1.0)
    }

    /// A progress handler on another queue is not waited for: the response comes while that queue
    /// is held (as the main queue of a daemon that never runs it would be).
    @Test func aProgressHandlerElsewhereDoesNotHoldTheResponse() async throws {
        let session = makeSession()
        let progressQueue = DispatchQueue(label: "test.progress")
        let responseQueue = DispatchQueue(label: "test.response")
        let request = session.request(Server.httpbin("/bytes/1024"))
        try #require(request.ownsQueue)
        let progressQueueHeld = DispatchSemaphore(value: 0)
        progressQueue.async { progressQueueHeld.wait() }
        let responded = Protected(false)
        let respondedWhileHeld = Protected<Bool?>(nil)
        // Posted on the request's queue as it finishes: a block queued there runs once the
        // completion left it, and one it queues on the response's queue runs after a response
        // already sent there. That one notes whether the response came, then lets the progress
        // queue go (so a response held behind it still comes, and the test ends).
        let observer = NotificationCenter.default.addObserver(forName: Request.didFinishNotification,
                                                              object: nil, queue: nil) { note in
            guard note.request === request else { return }
            request.underlyingQueue.async {
                responseQueue.async {
                    respondedWhileHeld.withLock { $0 = responded.value }
                    progressQueueHeld.signal()
                }
            }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let response = await withCheckedContinuation { continuation in
            request
                .downloadProgress(queue: progressQueue) { _ in }
                .response(queue: responseQueue) { response in
                    responded.withLock { $0 = true }
                    continuation.resume(returning: response)
                }
        }
        #expect(response.data?.count == 1024)
        #expect(respondedWhileHeld.value == true)
    }

    /// A response handler on the queue of a progress handler is not run inside the request's
    /// completion (where the last update could still wait in the request's queue, and would then
    /// reach its queue after the response); one alone on its queue is.
    @Test func aResponseHandlerSharingTheProgressQueueIsNotCalledInsideTheCompletion() async throws {
        let session = makeSession(startRequestsImmediately: false)
        let shared = DispatchQueue(label: "test.shared")
        for withProgress in [true, false] {
            let request = session.request(Server.httpbin("/bytes/16"))
            try #require(request.ownsQueue)
            if withProgress { request.downloadProgress(queue: shared) { _ in } }
            let response = await withCheckedContinuation { continuation in
                request.response(queue: shared) { continuation.resume(returning: $0) }
                // Asked before the request starts, as the engine asks when it completes.
                #expect(request.completionQueue === (withProgress ? session.rootQueue : shared))
                request.resume()
            }
            #expect(response.data?.count == 16)
        }
    }
}
