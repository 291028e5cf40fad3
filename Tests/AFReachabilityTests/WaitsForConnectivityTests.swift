@testable import AFReachability
import AFTestSupport
import Foundation
import Testing

extension InProcessMonitors {
    /// `waitsForConnectivity` in a network namespace whose carrier is down when the request
    /// starts: the request waits for the network (event monitors hear it) and goes out once the
    /// carrier is back, within the resource timeout and the request's deadline.
    @Suite(.serialized, .timeLimit(.minutes(1)),
           .enabled(if: NetworkNamespace.isPermitted, "needs root and `ip netns` (network namespaces); skipped here"))
    struct WaitsForConnectivityTests {
        typealias PathServer = NetworkChangeTests.PathServer

        /// A namespace without carrier, a server beyond it, and a Session inside that waits for
        /// connectivity; `waiting` fires when a task starts waiting.
        final class Setup: @unchecked Sendable {
            let namespace: NetworkNamespace
            let server: PathServer
            let session: Session
            let waiting = OneShot()
            let waitEvents = Protected(0)

            init(resourceTimeout: TimeInterval = 60) throws {
                let namespace = try NetworkNamespace()
                do {
                    server = try PathServer(address: namespace.outerAddress)
                    try NetworkNamespace.run(["link", "set", namespace.outer, "down"])
                } catch {
                    namespace.remove()
                    throw error
                }
                self.namespace = namespace
                let monitor = ClosureEventMonitor()
                let (waiting, waitEvents) = (waiting, waitEvents)
                monitor.taskIsWaitingForConnectivity = { _, _ in
                    waitEvents.withLock { $0 += 1 }
                    waiting.fire()
                }
                session = namespace.enter {
                    let configuration = URLSessionConfiguration.af.default
                    configuration.af.waitsForConnectivity = true
                    configuration.timeoutIntervalForResource = resourceTimeout
                    return Session(configuration: configuration, eventMonitors: [monitor])
                }
            }

            func url(_ path: String) -> String { "http://\(namespace.outerAddress):\(server.port)\(path)" }

            func end() {
                server.stop()
                namespace.remove()
            }
        }

        @Test func aRequestStartedOfflineGoesOutWhenTheCarrierReturns() async throws {
            let setup = try Setup()
            defer { setup.end() }
            let path = "/from?\(uniqueKey())"
            let response = Task { await setup.session.request(setup.url(path)).serializingString().response }
            await setup.waiting.wait()
            try NetworkNamespace.run(["link", "set", setup.namespace.outer, "up"])
            let restored = Date()
            let result = await response.value
            let elapsed = Date().timeIntervalSince(restored)
            #expect(result.value == setup.namespace.innerAddress, "\(String(describing: result.error))")
            #expect(elapsed < NetworkChangeTests.bound, "took \(elapsed) s after the carrier returned")
            #expect(setup.waitEvents.value == 1, "monitors hear the wait once per task")
            let requests = await setup.server.requests()
            #expect(requests.filter { $0.hasSuffix(" /from") }.count == 1, "\(requests)")
        }

        @Test func theWaitEndsAtTheResourceTimeoutWithTheReasonItWaited() async throws {
            let setup = try Setup(resourceTimeout: 0.5)
            defer { setup.end() }
            let response = await setup.session.request(setup.url("/from")).serializingString().response
            #expect(setup.waiting.hasFired)
            #expect((response.error?.underlyingError as? URLError)?.code == .notConnectedToInternet,
                    "\(String(describing: response.error))")
        }

        @Test func theWaitEndsAtTheRequestsDeadline() async throws {
            let setup = try Setup()
            defer { setup.end() }
            let request = setup.session.request(setup.url("/from"))
            let outcome = request.serializingString()
            await setup.waiting.wait()
            request.deadline(after: 0.1)
            let error = await outcome.response.error?.underlyingError as? URLError
            #expect(error?.code == .timedOut && error?.isCausedByDeadline == true, "\(String(describing: error))")
        }

        struct Stop: Error {}

        @Test func stoppingTheRetriesEndsTheWait() async throws {
            let setup = try Setup()
            defer { setup.end() }
            let request = setup.session.request(setup.url("/from"))
            let outcome = request.serializingString()
            await setup.waiting.wait()
            request.stopRetrying(because: Stop())
            let error = await outcome.response.error
            guard case let .requestRetryFailed(retryError, originalError)? = error else {
                Issue.record("expected requestRetryFailed, got \(String(describing: error))")
                return
            }
            #expect(retryError is Stop)
            #expect(((originalError as? AFError)?.underlyingError as? URLError)?.code == .notConnectedToInternet)
        }

        @Test func aCancelEndsTheWait() async throws {
            let setup = try Setup()
            defer { setup.end() }
            let request = setup.session.request(setup.url("/from"))
            let outcome = request.serializingString()
            await setup.waiting.wait()
            request.cancel()
            #expect(await outcome.response.error?.isExplicitlyCancelledError == true)
        }
    }
}
