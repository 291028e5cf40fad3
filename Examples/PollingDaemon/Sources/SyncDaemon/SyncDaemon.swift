import AFAuth
import AFCache
import AFCore
import AFReachability
import AFServiceLifecycle
import Foundation
import Logging
import ServiceLifecycle

/// Syncs one resource of an OAuth 2.0-protected API every 30 s, until SIGTERM.
@main
struct SyncDaemon {
    static func main() async throws {
        let logger = Logger(label: "sync-daemon")
        let settings = ProcessInfo.processInfo.environment
        guard let tokenURL = settings["TOKEN_URL"].flatMap(URL.init(string:)), let clientID = settings["CLIENT_ID"],
              let syncURL = settings["SYNC_URL"].flatMap(URL.init(string:)) else {
            logger.critical("set TOKEN_URL, CLIENT_ID, CLIENT_SECRET and SYNC_URL")
            exit(2)
        }
        let state = URL(fileURLWithPath: settings["STATE_DIRECTORY"] ?? "/var/lib/sync-daemon", isDirectory: true)
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])

        // OAuth 2.0: the first token is fetched, then refreshed on expiry or a 401; it is kept on
        // disk between runs, and dropped if the token server refuses it for good.
        let store = CredentialStore<OAuth2Credential>(fileURL: state.appendingPathComponent("credential.json"))
        let authenticator = OAuth2Authenticator(tokenEndpoint: tokenURL, clientID: clientID,
                                                clientSecret: settings["CLIENT_SECRET"],
                                                didRefresh: { try? store.save($0) },
                                                didReject: { _ in try? store.remove() })
        let authentication = AuthenticationInterceptor(authenticator: authenticator, credential: try store.load())

        // Responses cached in SQLite, by RFC 9111's rules.
        let configuration = URLSessionConfiguration.af.default
        configuration.urlCache = try SQLiteURLCache(fileURL: state.appendingPathComponent("cache.sqlite"))

        // The Session as a service. A lost connection is retried after a short back-off; without a
        // network, a request waits for it (up to 5 min). On SIGTERM nothing is retried any more,
        // and requests in flight have 10 s to finish.
        let http = SessionService(gracePeriod: .seconds(10), gracefulShutdownSignals: [.sigterm]) { gate, monitor in
            Session(configuration: configuration,
                    interceptor: Interceptor(retriers: [RetryPolicy(), OfflineRetrier(maximumWait: .seconds(300))],
                                             interceptors: [gate, authentication]),
                    eventMonitors: [monitor])
        }
        let sync = Sync(session: http.session, url: syncURL, logger: logger)

        // Services stop in reverse order: the sync first, then the Session.
        let group = ServiceGroup(services: [http, sync], gracefulShutdownSignals: [.sigterm], logger: logger)
        try await group.run()
    }
}

/// Gets `url` every 30 s until the graceful shutdown.
struct Sync: Service {
    let session: Session
    let url: URL
    let logger: Logger

    func run() async throws {
        while !Task.isShuttingDownGracefully {
            // One sync ends within a minute, retries and waits for the network included.
            let response = await session.request(url).validate().deadline(after: 60).serializingData().response
            switch response.result {
            case let .success(data): logger.info("synced", metadata: ["bytes": "\(data.count)"])
            case let .failure(error): logger.error("sync failed", metadata: ["error": "\(error)"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(30)) }
        }
    }
}
