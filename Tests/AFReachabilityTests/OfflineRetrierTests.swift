@testable import AFReachability
import AFTestSupport
import Foundation
import Testing

extension InProcessMonitors {
    /// OfflineRetrier with a request that fails while the link is down, and a server on the other
    /// end of the link.
    @Suite(.serialized, .timeLimit(.minutes(1)),
           .enabled(if: NetworkNamespace.isPermitted, "needs root and `ip netns` (network namespaces); skipped here"))
    struct OfflineRetrierTests {
        /// A static HTTP server (Python's) bound to one address, answering /hello.txt with "hello".
        final class LinkServer {
            let port: Int
            private let server: StartedProgram
            private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("af-link-\(UUID().uuidString)")

            init(address: String) throws {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try Data("hello".utf8).write(to: directory.appendingPathComponent("hello.txt"))
                let script = """
                    import functools, http.server, sys
                    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[2])
                    server = http.server.ThreadingHTTPServer((sys.argv[1], 0), handler)
                    print(server.server_address[1], flush=True)
                    server.serve_forever()
                    """
                server = try startProgram("/usr/bin/env", ["python3", "-c", script, address, directory.path])
                var line = Data()
                while let byte = try server.output.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
                    line.append(byte)
                }
                guard let port = Int(String(decoding: line, as: UTF8.self)) else {
                    server.stop()
                    throw NetworkNamespace.Failure(description: "the link server did not start")
                }
                self.port = port
            }

            func stop() {
                server.stop()
                try? FileManager.default.removeItem(at: directory)
            }
        }

        /// Signals once a connectivity failure reached the retrier.
        final class Signal: @unchecked Sendable {
            private let semaphore = DispatchSemaphore(value: 0)
            func fire() { semaphore.signal() }
            func wait() async -> Bool {
                await withCheckedContinuation { continuation in
                    DispatchQueue.global().async { continuation.resume(returning: self.semaphore.wait(timeout: .now() + 20) == .success) }
                }
            }
        }

        @Test func aRequestMadeWhileTheLinkIsDownSucceedsOnceItReturns() async throws {
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            let server = try LinkServer(address: namespace.outerAddress)
            defer { server.stop() }
            try namespace.inside(["link", "set", namespace.inner, "down"])

            // The Session's engine thread and the manager's sockets live in the namespace.
            let (session, manager) = namespace.enter {
                (Session(configuration: URLSessionConfiguration.af.default), NetworkReachabilityManager(host: namespace.outerAddress))
            }
            let failed = Signal()
            let retrier = OfflineRetrier(monitor: manager, maximumWait: .seconds(20)) { error in
                let offline = OfflineRetrier.defaultIsOfflineError(error)
                if offline { failed.fire() }
                return offline
            }
            let request = session.request("http://\(namespace.outerAddress):\(server.port)/hello.txt",
                                          interceptor: Interceptor(retriers: [retrier, RetryPolicy()]))
            let response = Task { await request.serializingString().response }
            #expect(await failed.wait(), "the first attempt should fail for want of a route")
            try namespace.inside(["link", "set", namespace.inner, "up"])
            let result = await response.value
            #expect(result.value == "hello")
            #expect(request.retryCount == 1)
            withExtendedLifetime(session) {}
        }

        /// Two retriers made with their default monitors, and the app's own listener on another
        /// manager: each retrier listens on a manager of its own, so all three hear the network
        /// come back (the shared default manager kept only the last listener).
        @Test func retriersWithDefaultMonitorsLeaveOtherListenersAlone() async throws {
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            let server = try LinkServer(address: namespace.outerAddress)
            defer { server.stop() }
            try namespace.inside(["link", "set", namespace.inner, "down"])
            let failures = [Signal(), Signal()]
            let (session, appManager, retriers) = namespace.enter {
                (Session(configuration: URLSessionConfiguration.af.default), NetworkReachabilityManager(),
                 failures.map { failed in
                     OfflineRetrier(maximumWait: .seconds(20)) { error in
                         let offline = OfflineRetrier.defaultIsOfflineError(error)
                         if offline { failed.fire() }
                         return offline
                     }
                 })
            }
            let backOnline = Signal()
            let listening = appManager?.startListening(onQueue: DispatchQueue(label: "test.app-listener")) { status in
                if case .reachable = status { backOnline.fire() }
            }
            #expect(listening == true)
            let url = "http://\(namespace.outerAddress):\(server.port)/hello.txt"
            let requests = retriers.map { session.request(url, interceptor: $0) }
            let responses = requests.map { request in Task { await request.serializingString().response } }
            for failed in failures {
                #expect(await failed.wait(), "each first attempt should fail for want of a route")
            }
            try namespace.inside(["link", "set", namespace.inner, "up"])
            try namespace.inside(["route", "replace", "default", "via", namespace.outerAddress])
            for (request, response) in zip(requests, responses) {
                #expect(await response.value.value == "hello")
                #expect(request.retryCount == 1)
            }
            #expect(await backOnline.wait(), "the app's listener should hear the network come back")
            appManager?.stopListening()
            withExtendedLifetime(session) {}
        }

        @Test func theWaitIsBounded() async throws {
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            try namespace.inside(["link", "set", namespace.inner, "down"])
            let (session, manager) = namespace.enter {
                (Session(configuration: URLSessionConfiguration.af.default), NetworkReachabilityManager(host: namespace.outerAddress))
            }
            let retrier = OfflineRetrier.offlineRetrier(monitor: manager, maximumWait: .milliseconds(200))
            let response = await session.request("http://\(namespace.outerAddress):9/", interceptor: retrier)
                .serializingData().response
            // The link is down: no path leads to the host.
            #expect(response.error?.underlyingError.flatMap { $0 as? URLError }?.code == .notConnectedToInternet)
            withExtendedLifetime(session) {}
        }

        /// The documented pattern: one manager for the app's own listener and for the retrier. The retrier
        /// watches beside the listener: the app keeps hearing every change after the wait.
        @Test func aManagerSharedWithTheAppKeepsTheAppsListener() async throws {
            typealias Heard = ReachabilityNamespaceTests.Heard
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            let server = try LinkServer(address: namespace.outerAddress)
            defer { server.stop() }
            try namespace.inside(["link", "set", namespace.inner, "down"])
            let (session, shared) = namespace.enter {
                (Session(configuration: URLSessionConfiguration.af.default), NetworkReachabilityManager(host: namespace.outerAddress))
            }
            let manager = try #require(shared)
            let heard = Heard()
            #expect(manager.startListening(onQueue: DispatchQueue(label: "test.app-listener")) { heard.record($0) })
            #expect(heard.waitFor(.notReachable, within: 5))
            let failed = Signal()
            let retrier = OfflineRetrier(monitor: manager, maximumWait: .seconds(20)) { error in
                let offline = OfflineRetrier.defaultIsOfflineError(error)
                if offline { failed.fire() }
                return offline
            }
            let request = session.request("http://\(namespace.outerAddress):\(server.port)/hello.txt", interceptor: retrier)
            let response = Task { await request.serializingString().response }
            #expect(await failed.wait())
            try namespace.inside(["link", "set", namespace.inner, "up"])
            try namespace.inside(["route", "replace", "default", "via", namespace.outerAddress])
            #expect(await response.value.value == "hello")
            #expect(heard.waitFor(.reachable(.ethernetOrWiFi), within: 5))
            // The retrier let its watch go; the app's listener is still there.
            try namespace.inside(["link", "set", namespace.inner, "down"])
            #expect(heard.waitFor(.notReachable, within: 5), "the app's listener should still hear changes: \(heard.all)")
            manager.stopListening()
            withExtendedLifetime(session) {}
        }

        /// With the network there at the failure, only a connection lost to a network change (or
        /// a request that found no path) is retried, and at once.
        @Test func withTheNetworkThereOnlyAPathChangeIsRetried() async throws {
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            let (session, retrier) = namespace.enter {
                (Session(configuration: URLSessionConfiguration.af.default),
                 OfflineRetrier(monitor: NetworkReachabilityManager(host: namespace.outerAddress), maximumWait: .seconds(120)))
            }
            let request = session.request("http://127.0.0.1:9/")
            _ = await request.serializingData().response
            func decision(_ error: URLError) async -> RetryResult {
                await withCheckedContinuation { continuation in
                    retrier.retry(request, for: session, dueTo: AFError.sessionTaskFailed(error: error)) { continuation.resume(returning: $0) }
                }
            }
            let changed = URLError(.networkConnectionLost, userInfo: [URLError.networkChangeKey: true])
            guard case .retry = await decision(changed) else { Issue.record("a connection lost to a network change should be retried"); return }
            guard case .retry = await decision(URLError(.notConnectedToInternet)) else { Issue.record("no path then, one now: retried"); return }
            guard case .doNotRetry = await decision(URLError(.networkConnectionLost)) else { Issue.record("a peer's reset is not retried"); return }
            guard case .doNotRetry = await decision(URLError(.cannotConnectToHost)) else { Issue.record("a refused connection is not retried"); return }
            withExtendedLifetime(session) {}
        }

        @Test func otherErrorsAreLeftToTheNextRetrier() {
            #expect(OfflineRetrier.defaultIsOfflineError(AFError.sessionTaskFailed(error: URLError(.notConnectedToInternet))))
            #expect(OfflineRetrier.defaultIsOfflineError(URLError(.cannotFindHost)))
            #expect(!OfflineRetrier.defaultIsOfflineError(URLError(.timedOut)))
            #expect(!OfflineRetrier.defaultIsOfflineError(AFError.explicitlyCancelled))
        }
    }

    /// OfflineRetrier when the network is there: nothing to wait for.
    @Suite(.timeLimit(.minutes(1))) struct OfflineRetrierOnlineTests {
        @Test func aRefusedConnectionWithTheNetworkUpIsNotRetried() async throws {
            let manager = try #require(NetworkReachabilityManager(host: "127.0.0.1"))
            // A wait this long would trip the time limit: the request must end without it.
            let retrier = OfflineRetrier(monitor: manager, maximumWait: .seconds(120))
            let session = Session(configuration: URLSessionConfiguration.af.default)
            let request = session.request("http://127.0.0.1:9/", interceptor: retrier)
            let response = await request.serializingData().response
            #expect(response.error?.underlyingError.flatMap { $0 as? URLError }?.code == .cannotConnectToHost)
            #expect(request.retryCount == 0)
            withExtendedLifetime(session) {}
        }
    }
}
