import AFCore
import Foundation
import Logging
import ServiceLifecycle

/// Polls `resource` every `interval` through `session` and logs what it got; ends on graceful
/// shutdown (or after `limit` polls, when given).
struct Poller: Service {
    let session: Session
    let resource: URL
    let interval: Duration
    let limit: Int?
    let logger: Logger

    private struct Answer: Decodable, Sendable {
        let token: String
    }

    func run() async throws {
        var polls = 0
        while limit.map({ polls < $0 }) ?? true {
            polls += 1
            // A poll ends within a minute, retries and waits for the network included.
            let response = await session.request(resource).validate().deadline(after: 60)
                .serializingDecodable(Answer.self).response
            switch response.result {
            case let .success(answer):
                logger.info("poll", metadata: ["n": "\(polls)", "token": "\(answer.token.prefix(8))…",
                                               "fromCache": "\(response.metrics?.transactionMetrics.last?.resourceFetchType == .localCache)"])
            case let .failure(error):
                logger.error("poll failed", metadata: ["n": "\(polls)", "error": "\(error.localizedDescription)"])
            }
            guard limit.map({ polls < $0 }) ?? true else { break }
            // Sleeping until the next poll is the job; a graceful shutdown cuts it short.
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                break
            }
            if Task.isShuttingDownGracefully { break }
        }
        logger.info("poller stopped", metadata: ["polls": "\(polls)"])
    }
}
