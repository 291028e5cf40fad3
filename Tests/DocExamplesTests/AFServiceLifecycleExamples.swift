import AFCore
import AFServiceLifecycle
import Logging
import ServiceLifecycle

/// Fetches the feed every minute until the graceful shutdown.
struct FeedPoller: Service {
    let session: Session

    func run() async throws {
        while !Task.isShuttingDownGracefully {
            let feed = await session.request("https://api.example.com/v1/feed").validate().serializingData().response
            print(feed.result)
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(60)) }
        }
    }
}

// Plugins/AFServiceLifecycle/AFServiceLifecycle.docc/AFServiceLifecycle.md
func afServiceLifecycleExample() async throws {
    let http = SessionService(interceptor: RetryPolicy(), gracePeriod: .seconds(10), gracefulShutdownSignals: [.sigterm])
    // Services stop in reverse order: the poller first, then the Session it uses.
    let group = ServiceGroup(services: [http, FeedPoller(session: http.session)], gracefulShutdownSignals: [.sigterm],
                             logger: Logger(label: "feed-daemon"))
    try await group.run()
}
