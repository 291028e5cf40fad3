import AFAuth
import AFCache
import AFCore
import AFLogging
import AFMetrics
import AFReachability
import AFServiceLifecycle
import Foundation
import Logging
import Metrics
import ServiceLifecycle
import UnixSignals

/// A daemon that polls an API the way a service in production would with AF: an OAuth 2.0 token
/// fetched and refreshed by AFAuth, responses cached in SQLite by AFCache, requests that fail
/// for want of a network waiting for it to come back (AFReachability's OfflineRetrier), one log
/// line and metrics per request (the AFLogging and AFMetrics plugins, plus a plugin of its own),
/// and a clean stop on SIGTERM or SIGINT (AFServiceLifecycle).
///
/// usage: PollingDaemon --token-endpoint URL --client ID --secret S --resource URL
///                      [--interval SECONDS] [--state DIRECTORY] [--polls N]
@main
struct PollingDaemon {
    static func main() async throws {
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        let options = try Options(CommandLine.arguments.dropFirst())
        let logger = Logger(label: "polling-daemon")

        try FileManager.default.createDirectory(at: options.stateDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        // The credential lives on disk between runs (owner-only, replaced whole). With none stored,
        // the first request fetches one (client credentials); a refresh token the token server
        // forgot is replaced the same way.
        let store = CredentialStore<OAuth2Credential>(fileURL: options.stateDirectory.appendingPathComponent("credential.json"))
        let authenticator = OAuth2Authenticator(tokenEndpoint: options.tokenEndpoint, clientID: options.clientID,
                                                clientSecret: options.secret,
                                                didRefresh: { credential in
                                                    do { try store.save(credential) } catch { logger.error("credential not saved: \(error)") }
                                                })
        let authentication = AuthenticationInterceptor(authenticator: authenticator, credential: try store.load())

        let configuration = URLSessionConfiguration.af.default
        configuration.urlCache = try SQLiteURLCache(fileURL: options.stateDirectory.appendingPathComponent("cache.sqlite"))

        // The group's signals: the grace period starts with the group's shutdown, although the
        // group reaches this service only after the poller (services shut down in reverse order).
        let sessionService = SessionService(gracePeriod: .seconds(10), gracefulShutdownSignals: [.sigterm, .sigint]) { gate, gateMonitor in
            Session(configuration: configuration,
                    interceptor: Interceptor(adapters: [], retriers: [OfflineRetrier()], interceptors: [gate, authentication]),
                    eventMonitors: [gateMonitor, LoggingEventMonitor(logger: logger), MetricsEventMonitor(prefix: "polling_daemon"),
                                    SlowRequestMonitor(threshold: 1, logger: logger)])
        }
        let poller = Poller(session: sessionService.session, resource: options.resource, interval: options.interval,
                            limit: options.polls, logger: logger)
        // Shut down in reverse order: the poller stops first, then the Session drains.
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [.init(service: sessionService), .init(service: poller, successTerminationBehavior: .gracefullyShutdownGroup)],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        logger.info("started", metadata: ["resource": "\(options.resource)", "state": "\(options.stateDirectory.path)"])
        try await group.run()
        logger.info("stopped cleanly")
    }
}

/// The command line.
struct Options {
    var tokenEndpoint: URL
    var clientID: String
    var secret: String
    var resource: URL
    var interval = Duration.seconds(5)
    /// Where the credential and the response cache are kept.
    var stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("polling-daemon")
    var polls: Int?

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    init(_ arguments: ArraySlice<String>) throws {
        var values: [String: String] = [:]
        var iterator = arguments.makeIterator()
        while let name = iterator.next() {
            guard name.hasPrefix("--"), let value = iterator.next() else { throw UsageError(description: "expected --name value, got \(name)") }
            values[String(name.dropFirst(2))] = value
        }
        func url(_ name: String) throws -> URL {
            guard let text = values[name], let url = URL(string: text) else { throw UsageError(description: "--\(name) URL is required") }
            return url
        }
        tokenEndpoint = try url("token-endpoint")
        resource = try url("resource")
        guard let client = values["client"], let secret = values["secret"] else {
            throw UsageError(description: "--client and --secret are required")
        }
        clientID = client
        self.secret = secret
        if let seconds = values["interval"].flatMap(Double.init) { interval = .milliseconds(Int(seconds * 1000)) }
        if let path = values["state"] { stateDirectory = URL(fileURLWithPath: path, isDirectory: true) }
        polls = values["polls"].flatMap(Int.init)
    }
}
