@testable import AFReachability
import AFTestSupport
import Foundation
import Testing

extension InProcessMonitors {
    /// A Session configured as Alamofire users configure it (`RetryPolicy` then `OfflineRetrier`),
    /// in a network namespace whose network changes under it: its connections follow the
    /// network instead of waiting out their timeout. The server, in the test's own namespace,
    /// answers with the address each request came from.
    @Suite(.serialized, .timeLimit(.minutes(1)),
           .enabled(if: NetworkNamespace.isPermitted, "needs root and `ip netns` (network namespaces); skipped here"))
    struct NetworkChangeTests {
        /// Tests/Fixtures/path_server.py on one address; each request it receives is a line on `received`.
        final class PathServer: @unchecked Sendable {
            let port: Int
            private let address: String
            private let server: StartedProgram
            private let lines = NSCondition()
            private var received: [String] = []

            init(address: String) throws {
                let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent("Fixtures/path_server.py").path
                server = try startProgram("/usr/bin/env", ["python3", script, address])
                guard let first = Self.readLine(server.output), let port = Int(first) else {
                    server.stop()
                    throw NetworkNamespace.Failure(description: "the path server did not start")
                }
                self.port = port
                self.address = address
                let output = server.output
                Thread { [weak self] in
                    while let line = Self.readLine(output) {
                        guard let self else { return }
                        self.lines.lock()
                        self.received.append(line)
                        self.lines.broadcast()
                        self.lines.unlock()
                    }
                }.start()
            }

            private static func readLine(_ handle: FileHandle) -> String? {
                var line = Data()
                while let byte = try? handle.read(upToCount: 1), !byte.isEmpty {
                    if byte == Data("\n".utf8) { return String(decoding: line, as: UTF8.self) }
                    line.append(byte)
                }
                return nil
            }

            /// Waits (up to 20 s) until a request for `path` arrived; the address it came from.
            func waitForRequest(_ path: String) -> String? {
                lines.lock()
                defer { lines.unlock() }
                let deadline = Date().addingTimeInterval(20)
                while true {
                    if let line = received.first(where: { $0.hasSuffix(" " + path) }) {
                        return line.split(separator: " ").first.map(String.init)
                    }
                    if !lines.wait(until: deadline) { return nil }
                }
            }

            /// Every request the server has received so far, as "address path", asked of the
            /// server itself: its printed lines may still be on their way to `received`.
            /// A failed read gives one line saying why.
            func requests() async -> [String] {
                let session = Session()
                let log = await session.request("http://\(address):\(port)/log", requestModifier: { $0.timeoutInterval = 5 })
                    .serializingString().response
                guard let body = log.value else { return ["the server's log could not be read: \(String(describing: log.error))"] }
                return body.split(separator: "\n").map(String.init).filter { !$0.hasSuffix(" /log") }
            }

            func stop() { server.stop() }
        }

        /// Records each error a request's attempts failed with, and leaves the decision to the
        /// retriers after it.
        final class ErrorRecorder: RequestRetrier, @unchecked Sendable {
            private let lock = NSCondition()
            private var errors: [URLError] = []

            func retry(_ request: Request, for session: Session, dueTo error: any Error,
                       completion: @escaping @Sendable (RetryResult) -> Void) {
                if let urlError = (error as? AFError)?.underlyingError as? URLError {
                    lock.withLock {
                        errors.append(urlError)
                        lock.broadcast()
                    }
                }
                completion(.doNotRetry)
            }

            var seen: [URLError] { lock.withLock { errors } }

            /// Waits (up to 20 s) until `count` failures were recorded.
            func waitFor(count: Int) -> Bool {
                lock.withLock {
                    let deadline = Date().addingTimeInterval(20)
                    while errors.count < count {
                        if !lock.wait(until: deadline) { return errors.count >= count }
                    }
                    return true
                }
            }
        }

        /// A namespace, a path server in the test's own namespace (on the outer end, or on the
        /// address only the default route reaches), and a Session in the namespace configured as
        /// Alamofire users configure it, with an error recorder first. `end()` removes it all.
        final class Setup: @unchecked Sendable {
            let namespace: NetworkNamespace
            let server: PathServer
            let serverAddress: String
            let recorder = ErrorRecorder()
            let session: Session

            init(serverBeyondTheDefaultRoute: Bool = false, timeout: TimeInterval = 20) throws {
                let namespace = try NetworkNamespace()
                let serverAddress = serverBeyondTheDefaultRoute ? namespace.farAddress : namespace.outerAddress
                do {
                    server = try PathServer(address: serverAddress)
                } catch {
                    namespace.remove()
                    throw error
                }
                self.namespace = namespace
                self.serverAddress = serverAddress
                let recorder = recorder
                session = namespace.enter {
                    let configuration = URLSessionConfiguration.af.default
                    configuration.timeoutIntervalForRequest = timeout
                    return Session(configuration: configuration,
                                   interceptor: Interceptor(retriers: [recorder, RetryPolicy(),
                                                                       OfflineRetrier(maximumWait: .seconds(20))]))
                }
            }

            var url: String { "http://\(serverAddress):\(server.port)" }

            /// Sends a request the server holds (it answers only a later attempt) and waits until
            /// the server has it, from the namespace's address.
            func requestHeldByTheServer() -> Task<DataResponse<String, AFError>, Never> {
                let path = "/slow/\(uniqueKey())"
                let request = session.request(url + path + "?seconds=40")
                let response = Task { await request.serializingString().response }
                #expect(server.waitForRequest(path) == namespace.innerAddress)
                return response
            }

            func end() {
                server.stop()
                namespace.remove()
            }
        }

        /// The bound for a request to go out again once the new path is usable.
        static let bound: TimeInterval = 1.5
        /// The bound for a new request after a renumbering. Sent over the old address's pooled
        /// connection it would wait out the request timeout (`Setup`'s 20 s); sent as it should be,
        /// it takes a fraction of a second alone, and near two under a sanitizer with the whole
        /// suite running.
        static let renumberingBound: TimeInterval = 5

        @Test func aRequestAfterARenumberingGoesOutOnANewConnectionAtOnce() async throws {
            let setup = try Setup()
            defer { setup.end() }
            let (namespace, session, recorder) = (setup.namespace, setup.session, setup.recorder)
            #expect(await session.request(setup.url + "/from").serializingString().response.value == namespace.innerAddress)

            try namespace.renumber()
            let started = Date()
            let request = session.request(setup.url + "/from")
            let response = await request.serializingString().response
            let elapsed = Date().timeIntervalSince(started)
            #expect(response.value == namespace.spareAddress, "the request should come from the new address")
            #expect(elapsed < Self.renumberingBound, "took \(elapsed) s: it waited on the pooled connection of the old address")
            #expect(request.retryCount == 0 && recorder.seen.isEmpty, "no attempt should have failed: \(recorder.seen)")
            #expect(await setup.server.requests() == ["\(namespace.innerAddress) /from", "\(namespace.spareAddress) /from"])
        }

        @Test func aRequestInFlightDuringARenumberingIsSentAgainOverTheNewAddress() async throws {
            let setup = try Setup()
            defer { setup.end() }
            let response = setup.requestHeldByTheServer()

            try setup.namespace.renumber()
            let renumbered = Date()
            let result = await response.value
            let elapsed = Date().timeIntervalSince(renumbered)
            #expect(result.value == setup.namespace.spareAddress)
            #expect(elapsed < Self.bound, "took \(elapsed) s after the new address was usable")
            let seen = setup.recorder.seen
            #expect(seen.first?.code == .networkConnectionLost && seen.first?.isCausedByNetworkChange == true,
                    "the attempt on the old address should end as a lost connection: \(seen)")
        }

        /// The carrier goes for `outage` (while a request waits for its answer), then returns.
        private func carrierLoss(lasting outage: TimeInterval, requestTimeout: TimeInterval) async throws {
            let setup = try Setup(timeout: requestTimeout)
            defer { setup.end() }
            let (namespace, recorder) = (setup.namespace, setup.recorder)
            let response = setup.requestHeldByTheServer()

            try NetworkNamespace.run(["link", "set", namespace.outer, "down"])
            let lost = Date()
            #expect(recorder.waitFor(count: 1))
            #expect(Date().timeIntervalSince(lost) < Self.bound, "the connection should be given up at once")
            #expect(recorder.seen.first?.code == .networkConnectionLost, "\(recorder.seen)")
            // The rest of the outage itself, not a wait for something to happen.
            let left = outage - Date().timeIntervalSince(lost)
            if left > 0 { try await Task.sleep(for: .milliseconds(Int(left * 1000))) }
            let duringOutage = recorder.seen
            try NetworkNamespace.run(["link", "set", namespace.outer, "up"])
            let restored = Date()
            let result = await response.value
            let elapsed = Date().timeIntervalSince(restored)
            #expect(result.value == namespace.innerAddress)
            #expect(elapsed < Self.bound, "took \(elapsed) s after the carrier returned (\(Date().timeIntervalSince(lost)) s in all)")
            // (The first attempt once the carrier is back may still be refused while the link settles;
            // OfflineRetrier gives it one more try.)
            #expect(duringOutage.dropFirst().allSatisfy { $0.code == .notConnectedToInternet },
                    "attempts without carrier should fail at once for want of a path: \(duringOutage)")
        }

        @Test func aShortCarrierLoss() async throws {
            try await carrierLoss(lasting: 0.3, requestTimeout: 10)
        }

        @Test func aCarrierLossLongerThanTheRequestTimeout() async throws {
            try await carrierLoss(lasting: 3, requestTimeout: 1.5)
        }

        @Test func theDefaultRouteRemovedAndRestored() async throws {
            // Only the default route leads to this server.
            let setup = try Setup(serverBeyondTheDefaultRoute: true)
            defer { setup.end() }
            let (namespace, recorder) = (setup.namespace, setup.recorder)
            let response = setup.requestHeldByTheServer()

            try namespace.inside(["route", "del", "default"])
            // The lost connection, then RetryPolicy's two attempts for want of a route; then
            // OfflineRetrier waits.
            #expect(recorder.waitFor(count: 3))
            try namespace.inside(["route", "add", "default", "via", namespace.outerAddress])
            let restored = Date()
            let result = await response.value
            let elapsed = Date().timeIntervalSince(restored)
            #expect(result.value == namespace.innerAddress)
            #expect(elapsed < Self.bound, "took \(elapsed) s after the route returned")
            #expect(recorder.seen.first?.code == .networkConnectionLost && recorder.seen.first?.isCausedByNetworkChange == true,
                    "\(recorder.seen)")
            #expect(recorder.seen.count >= 2 && recorder.seen.dropFirst().allSatisfy { $0.code == .notConnectedToInternet },
                    "\(recorder.seen)")
        }

        @Test func aRequestStartedWithoutCarrierFailsAtOnce() async throws {
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            // The routes stay, so a connection attempt would wait out TCP's back-off.
            try NetworkNamespace.run(["link", "set", namespace.outer, "down"])
            let session = namespace.enter { Session(configuration: URLSessionConfiguration.af.default) }
            let started = Date()
            let response = await session.request("http://\(namespace.outerAddress):9/").serializingData().response
            let elapsed = Date().timeIntervalSince(started)
            let error = response.error?.underlyingError as? URLError
            #expect(error?.code == .notConnectedToInternet, "\(String(describing: response.error))")
            #expect(elapsed < Self.bound, "took \(elapsed) s")
            withExtendedLifetime(session) {}
        }

        @Test func aSessionThatDoesNotFollowTheNetworkWaitsOutItsTimeout() async throws {
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            try NetworkNamespace.run(["link", "set", namespace.outer, "down"])
            let session = namespace.enter {
                let configuration = URLSessionConfiguration.af.default
                configuration.timeoutIntervalForRequest = 1
                return Session(configuration: configuration, followsNetworkChanges: false)
            }
            let response = await session.request("http://\(namespace.outerAddress):9/").serializingData().response
            #expect((response.error?.underlyingError as? URLError)?.code == .timedOut, "\(String(describing: response.error))")
            withExtendedLifetime(session) {}
        }
    }
}
