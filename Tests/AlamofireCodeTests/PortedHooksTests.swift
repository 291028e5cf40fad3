import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The hooks in PortedHooks.swift, written for Alamofire, at work in AF against the local servers.
@Suite(.timeLimit(.minutes(1))) struct PortedHooksTests {
    @Test func aRedirectHandlerWrittenForAlamofireDecidesRedirects() async throws {
        let session = makeSession(redirectHandler: StripAuthRedirect())
        // httpbin listens on 127.0.0.1; the same server named "localhost" is another host.
        let target = Server.httpbin("/headers").replacingOccurrences(of: "127.0.0.1", with: "localhost")
        let url = Server.httpbin("/redirect-to?url=" + target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        let echoed = try await session.request(url, headers: [.authorization(bearerToken: "secret")])
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(echoed.headers["X-Redirected-By"] == "StripAuthRedirect")
        #expect(echoed.headers["Authorization"] == nil)
    }

    @Test func aMonitorWrittenForAlamofireIsCalledWithTheTask() async throws {
        let finished = OneShot()
        let logger = TaskEventLogger { finished.fire() }
        let session = makeSession(eventMonitors: [logger])
        let request = session.request(Server.http("/bench.json"))
        _ = try await request.serializingData().value
        await finished.wait()
        let logged = logger.logged
        for line in ["didCreateTask", "didResumeTask", "didReceiveResponse 200", "didReceiveData",
                     "didCompleteWithError nil", "didCompleteTask true"] {
            #expect(logged.contains(line), "missing \(line) in \(logged)")
        }
        #expect(logger.createdTask === request.task, "the monitor got the request's own task object")
    }

    @Test func aDownloadMonitorHearsTheFileFinish() async throws {
        let finished = OneShot()
        let logger = TaskEventLogger { finished.fire() }
        let session = makeSession(eventMonitors: [logger])
        let response = await session.download(Server.http("/bench.json")).serializingDownloadedFileURL().response
        #expect(response.error == nil)
        await finished.wait()
        #expect(logger.logged.contains("didFinishDownloadingTo"))
        if let url = response.fileURL { try? FileManager.default.removeItem(at: url) }
    }

    @Test func aSubclassOfClosureEventMonitorIsCalled() async throws {
        let finished = OneShot()
        let monitor = CountingMonitor(queue: DispatchQueue(label: "ported.counting"))
        monitor.requestDidFinish = { _ in finished.fire() }
        let session = makeSession(eventMonitors: [monitor])
        _ = try await session.request(Server.http("/bench.json")).serializingData().value
        await finished.wait()  // requestDidFinish is sent after the handler ran
        #expect(monitor.finishedCount == 1)
    }

    @Test func anInterceptorAndASerializerWrittenForAlamofireWork() async throws {
        let session = makeSession()
        let response = await session.request(Server.httpbin("/bearer"), interceptor: TokenInterceptor())
            .serializingDecodable([String: AnyDecodable].self).response
        #expect(response.value?["token"]?.description == "ported-token")
        let words = try await session.request(Server.httpbin("/base64/" + Data("a,b,c".utf8).base64EncodedString()))
            .serializingResponse(using: CommaSeparatedSerializer()).value
        #expect(words == ["a", "b", "c"])
    }

    @Test func aCachedResponseHandlerWrittenForAlamofireIsAsked() async throws {
        let configuration = URLSessionConfiguration.af.default
        let cache = URLCache(memoryCapacity: 1 << 20, diskCapacity: 0, diskPath: nil)
        configuration.urlCache = cache
        let session = makeSession(configuration: configuration, cachedResponseHandler: CacheSuccessesOnly())
        _ = await session.request(Server.httpbin("/status/404")).serializingData(emptyResponseCodes: [404]).response
        #expect(await session.request(Server.httpbin("/cache")).serializingData().response.error == nil)
    }

    @Test func onHTTPResponseAsAlamofireDocumentsIt() async throws {
        let session = makeSession()
        let response = await session.request(Server.http("/static/1mb.bin"))
            .onHTTPResponse { response, completionHandler in
                completionHandler(response.statusCode == 200 ? .cancel : .allow)
            }
            .serializingData().response
        #expect(response.error?.isExplicitlyCancelledError == true)
        let statuses = Protected<[Int]>([])
        _ = try await session.request(Server.http("/bench.json"))
            .onHTTPResponse { response in statuses.withLock { $0.append(response.statusCode) } }
            .serializingData().value
        await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
        #expect(statuses.value == [200])
    }

    @Test func theAsyncSequencesAsAlamofireDocumentsThem() async throws {
        let session = makeSession()
        let request = session.request(Server.http("/static/1mb.bin"))
        // The sequences are made before the request starts, so they see all of its events.
        let progressEvents = request.downloadProgress()
        let responseEvents = request.httpResponses(bufferingPolicy: .bufferingNewest(1))
        let requestEvents = request.urlRequests()
        let progress = Task {
            var last = 0.0
            for await progress in progressEvents { last = progress.fractionCompleted }
            return last
        }
        let responses = Task {
            var codes: [Int] = []
            for await response in responseEvents { codes.append(response.statusCode) }
            return codes
        }
        let requests = Task { await requestEvents.reduce(into: [URLRequest]()) { $0.append($1) } }
        _ = try await request.serializingData().value
        #expect(await progress.value == 1)
        #expect(await responses.value == [200])
        #expect(await requests.value.count == 1)
    }

    @Test func tasksAreFoundationTasksOfTheRightKind() async throws {
        let session = makeSession()
        let data = session.request(Server.http("/bench.json"))
        let body = data.serializingData()
        let created: URLSessionTask = await response { done in data.onURLSessionTaskCreation(on: .main) { done($0) } }
        _ = try await body.value
        let task = try #require(data.task as? URLSessionDataTask)
        #expect(task === created && data.task === data.task && data.tasks.first === task)
        #expect(task.state == .completed && (task.response as? HTTPURLResponse)?.statusCode == 200)
        #expect(task.originalRequest?.url == data.request?.url && task.currentRequest?.url == data.request?.url)
        #expect(task.countOfBytesReceived == 17 && task.error == nil && task.taskIdentifier > 0)

        let upload = session.upload(Data("body".utf8), to: Server.httpbin("/post"))
        _ = await upload.serializingData().response
        #expect(upload.task is URLSessionUploadTask)
        let download = session.download(Server.http("/bench.json"))
        let downloaded = await download.serializingDownloadedFileURL().response
        #expect(download.task is URLSessionDownloadTask)
        if let url = downloaded.fileURL { try? FileManager.default.removeItem(at: url) }
    }

    @Test func cancellingTheTaskEndsTheRequest() async throws {
        let session = makeSession()
        let request = session.request(Server.faults("/stall"))
        let result = request.serializingData()
        let task: URLSessionTask = await response { done in request.onURLSessionTaskCreation(on: .main) { done($0) } }
        task.cancel()
        let error = await result.response.error
        #expect((error?.underlyingError as? URLError)?.code == .cancelled)
        #expect(task.state == .completed)
    }
}
