import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What was measured while a task ran: AF's counterpart of `URLSessionTaskMetrics`.
public struct TaskMetrics: Sendable {
    /// From the task's start to its end.
    public let taskInterval: DateInterval
    /// How many redirects were followed.
    public let redirectCount: Int
    /// One entry per HTTP exchange, in order (a redirect adds one).
    public let transactionMetrics: [TransactionMetrics]
}

/// What was measured for one HTTP exchange: AF's counterpart of `URLSessionTaskTransactionMetrics`.
public struct TransactionMetrics: @unchecked Sendable {
    /// The request sent.
    public let request: URLRequest
    /// The response received, if any (built when first read).
    public var response: HTTPURLResponse? { received?.httpResponse }
    /// The response as received.
    let received: ReceivedResponse?
    /// When the exchange started.
    public let fetchStartDate: Date
    /// When the exchange ended.
    public let responseEndDate: Date
    /// Time spent resolving the host name; `nil` when no lookup was made.
    public let domainLookupDuration: TimeInterval?
    /// Time spent opening the TCP connection; `nil` when an existing connection was used.
    public let connectDuration: TimeInterval?
    /// Time spent on the TLS handshake; `nil` without TLS or on a reused connection.
    public let secureConnectionDuration: TimeInterval?
    /// From the start to the first response byte.
    public let timeToFirstByte: TimeInterval?
    /// From the start to the end.
    public let totalDuration: TimeInterval
    /// ALPN-style protocol name: `http/1.0`, `http/1.1`, `h2` or `h3`.
    public let networkProtocolName: String?
    /// Whether the exchange reused an open connection.
    public let isReusedConnection: Bool
    /// Body bytes sent.
    public let countOfRequestBodyBytesSent: Int64
    /// Header bytes received.
    public let countOfResponseHeaderBytesReceived: Int64
    /// Body bytes received, after decoding.
    public let countOfResponseBodyBytesReceived: Int64
    /// The peer's IP address.
    public let remoteAddress: String?
    /// The peer's port.
    public let remotePort: Int?
    /// The local IP address.
    public let localAddress: String?
    /// The local port; exchanges multiplexed on one connection share it.
    public let localPort: Int?
    /// Where the response came from: the network, the HTTP cache, or the cache after the origin
    /// answered 304 Not Modified.
    public internal(set) var resourceFetchType: ResourceFetchType = .networkLoad

    /// Where a response came from (`URLSessionTaskMetrics.ResourceFetchType`, plus revalidation).
    public enum ResourceFetchType: Sendable {
        /// Sent over the network.
        case networkLoad
        /// Answered by the HTTP cache without the network.
        case localCache
        /// Answered by the HTTP cache after the origin confirmed it (304 Not Modified).
        case revalidatedCache
    }

    /// The record of an answer from the HTTP cache: no network, no bytes.
    static func localCache(request: URLRequest, response: ReceivedResponse, start: Date, end: Date) -> TransactionMetrics {
        var metrics = TransactionMetrics(
            request: request, received: response, fetchStartDate: start, responseEndDate: end,
            domainLookupDuration: nil, connectDuration: nil, secureConnectionDuration: nil, timeToFirstByte: nil,
            totalDuration: end.timeIntervalSince(start), networkProtocolName: nil, isReusedConnection: false,
            countOfRequestBodyBytesSent: 0, countOfResponseHeaderBytesReceived: 0, countOfResponseBodyBytesReceived: 0,
            remoteAddress: nil, remotePort: nil, localAddress: nil, localPort: nil)
        metrics.resourceFetchType = .localCache
        return metrics
    }
}

/// Raw timing and counters read from curl at the end of one exchange.
struct CurlTimings: Sendable {
    var nameLookup: Int64 = 0
    var connect: Int64 = 0
    var appConnect: Int64 = 0
    var startTransfer: Int64 = 0
    var total: Int64 = 0
    var httpVersion: Int = 0
    var connectsOpened: Int = 0
    var uploaded: Int64 = 0
    var downloaded: Int64 = 0
    var headerBytes: Int64 = 0
    var remoteAddress: String?
    var remotePort: Int = 0
    var localAddress: String?
    var localPort: Int = 0

    var protocolName: String? {
        switch httpVersion {
        case 1: "http/1.0"
        case 2: "http/1.1"
        case 3: "h2"
        case 30: "h3"
        default: nil
        }
    }

    func transactionMetrics(request: URLRequest, response: ReceivedResponse?, start: Date) -> TransactionMetrics {
        func seconds(_ micros: Int64) -> TimeInterval { TimeInterval(micros) / 1_000_000 }
        let reused = connectsOpened == 0
        return TransactionMetrics(
            request: request,
            received: response,
            fetchStartDate: start,
            responseEndDate: start.addingTimeInterval(seconds(total)),
            domainLookupDuration: reused || nameLookup == 0 ? nil : seconds(nameLookup),
            connectDuration: reused ? nil : seconds(connect - nameLookup),
            secureConnectionDuration: reused || appConnect == 0 ? nil : seconds(appConnect - connect),
            timeToFirstByte: startTransfer == 0 ? nil : seconds(startTransfer),
            totalDuration: seconds(total),
            networkProtocolName: protocolName,
            isReusedConnection: reused,
            countOfRequestBodyBytesSent: uploaded,
            countOfResponseHeaderBytesReceived: headerBytes,
            countOfResponseBodyBytesReceived: downloaded,
            remoteAddress: remoteAddress,
            remotePort: remotePort == 0 ? nil : remotePort,
            localAddress: localAddress,
            localPort: localPort == 0 ? nil : localPort
        )
    }
}
