import AFCore
import AFMultipart
import AFReachability
import AFTestSupport
import AFTrust
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Session setup and module API written as Alamofire documents it.
@Suite(.timeLimit(.minutes(1))) struct PortedSetupTests {
    @Test func aSessionMadeWithADelegateAndMonitorsStillPostsNotifications() async throws {
        _ = TestServers.shared
        let logger = TaskEventLogger {}
        let session = Session(configuration: URLSessionConfiguration.af.default,
                              delegate: SessionDelegate(fileManager: .default),
                              rootQueue: DispatchQueue(label: "ported.root"),
                              eventMonitors: [logger])
        #expect(session.defaultEventMonitors.first is AlamofireNotifications)
        #expect(session.eventMonitor.monitors.count == 2)
        let request = session.request(Server.http("/bench.json"))
        var observers: [any NSObjectProtocol] = []
        let posted = await withCheckedContinuation { continuation in
            let once = Protected(false)
            let observer = NotificationCenter.default.addObserver(forName: Request.didFinishNotification, object: nil,
                                                                  queue: nil) { note in
                guard note.request == request else { return }
                let first = once.withLock { posted in
                    defer { posted = true }
                    return !posted
                }
                if first { continuation.resume(returning: true) }
            }
            observers.append(observer)
            request.resume()
        }
        observers.forEach { NotificationCenter.default.removeObserver($0) }
        #expect(posted)
    }

    @Test func aSessionMadeFromAURLSessionHandsItBack() async throws {
        _ = TestServers.shared
        let urlSession = URLSession(configuration: .af.default)
        let session = Session(session: urlSession, delegate: AuditingSessionDelegate(), rootQueue: DispatchQueue(label: "ported.root2"))
        #expect(session.session === urlSession)
        #expect(try await session.request(Server.http("/bench.json")).serializingData().value.count == 17)
    }

    @Test func moduleAPIAsAlamofireSpellsIt() async throws {
        // OfflineRetrier's statics and shorthand.
        #expect(OfflineRetrier.defaultWait == .seconds(5))
        #expect(OfflineRetrier.defaultURLErrorOfflineCodes.contains(.notConnectedToInternet))
        #expect(OfflineRetrier.defaultIsOfflineError(AFError.sessionTaskFailed(error: URLError(.notConnectedToInternet))))
        let interceptor: any RequestInterceptor = .offlineRetrier(maximumWait: .seconds(1))
        #expect(interceptor is OfflineRetrier)
        // Trust: the bundle's certificates (none next to the test runner) and the revocation error's shape.
        #expect(Bundle.main.af.certificates.isEmpty)
        let error = AFError.serverTrustEvaluationFailed(reason: .revocationCheckFailed(
            output: .init(host: "h", trust: ServerTrust(certificateData: [], host: "h", defaultEvaluationSucceeded: false,
                                                        defaultEvaluationError: nil), detail: "revoked"),
            options: .any))
        if case let .serverTrustEvaluationFailed(.revocationCheckFailed(_, options)) = error {
            #expect(options == RevocationTrustEvaluator.Options.any)
        } else {
            Issue.record("unexpected \(error)")
        }
        // A ready form that waits for resume().
        let form = MultipartFormData()
        form.append(Data("value".utf8), withName: "field")
        let session = makeSession()
        let upload = session.upload(multipartFormData: form, to: Server.httpbin("/post"), shouldAutomaticallyResume: false)
        let task = upload.serializingData()
        #expect(upload.state == .initialized)
        upload.resume()
        #expect(await task.response.response?.statusCode == 200)
    }

    @Test func aSubclassOverridesARequestMethod() async throws {
        _ = TestServers.shared
        let session = CountingSession(configuration: .af.default)
        let url = try #require(URL(string: Server.http("/bench.json")))
        _ = try await session.request(URLRequest(url: url)).serializingData().value
        #expect(session.requestsMade == 1)
    }
}
