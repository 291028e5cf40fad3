import CCurl
import CCurlShim
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// How an exchange ended, read once from the finished handle: the response, the failure with
// the reason AF knows better than curl, and the timings for the metrics.
extension Transfer {
    /// Builds the outcome from the finished handle; called once, on the engine thread.
    func makeOutcome(result: CURLcode, cancelled: Bool) -> TransferOutcome {
        var timings = CurlTimings()
        var failure: CurlFailure?
        // Whatever ended the body, the file gets every byte received (a partial one stays resumable).
        let flushed = bodyWriter?.flush() != false
        let writeFailure = (bodyWriter ?? downloadWriter)?.failure ?? answerFailure
        if let handle {
            timings = Self.readTimings(handle)
            if result == CURLE_OK, !flushed {
                failure = CurlFailure(code: CURLE_WRITE_ERROR, message: writeFailure?.localizedDescription,
                                      localError: writeFailure)
            } else if result == CURLE_OK, !cancelled, parser.completed == nil, spec.target != .file {
                // curl took a status line AF does not (a code of other than three digits after
                // "HTTP/2"): the exchange has no response to report.
                failure = CurlFailure(code: CURLE_WEIRD_SERVER_REPLY, message: "the response's status line has no three-digit code")
            } else if result != CURLE_OK, !cancelled, !rangeRejected {
                var message = handle.errorMessage
                if result == CURLE_COULDNT_CONNECT, let socket = standing.values.unixSocketPath {
                    message = "cannot connect to the Unix socket at \(socket)" + (message.map { " (\($0))" } ?? "")
                }
                failure = CurlFailure(code: result, message: message,
                                      localError: uploadError ?? watchFailure ?? writeFailure ?? decompressionError ?? tunnelRefusal(handle)
                                          ?? networkFailure(result, message: message),
                                      afError: trustError ?? uploadAFError, trustPending: trustPending)
            }
        }
        var head = parser.completed
        if holdsChallenge {
            // Ended well, the exchange's last head is the challenge: the response. Ended otherwise,
            // curl was answering it when the exchange failed: no response.
            if result == CURLE_OK, !cancelled { releaseHeldChallenge() } else { head = nil }
            heldChallenge = nil
        }
        let outcome = TransferOutcome(head: head, body: body, failure: failure, wasCancelled: cancelled, timings: timings,
                                      rangeRejected: rangeRejected,
                                      streamCopyIsWhole: spec.streamCopyLimit != nil && streamCopyKept,
                                      redirectBodyDropped: redirectBodyDropped, answerFile: answerWriter?.url)
        bodyWriter = nil
        answerFailure = nil
        body = Data()
        uploadReader = nil
        uploadPump?.close()
        uploadPump = nil
        downloadWriter = nil
        handle = nil
        phase = .finished
        return outcome
    }

    /// Records why the engine's wait set refused the transfer's socket (an errno), before the
    /// engine ends it: without a watch, curl would wait on that socket until the timeout.
    func noteUnwatchedSocket(reason: Int32) {
        let limit = reason == ENOSPC ? " (the limit on watched descriptors, fs.epoll.max_user_watches, is reached)" : ""
        // Before any head the host was not reached, as far as the request knows; after, the
        // connection it was using is as good as lost.
        watchFailure = urlError(parser.completed == nil ? .cannotConnectToHost : .networkConnectionLost,
                                "The engine could not watch the connection's socket: \(String(cString: strerror(reason)))\(limit)")
    }

    /// The failure's `URLError` when the proxy refused the tunnel to the host (it answered
    /// CONNECT with other than 2xx): the host could not be reached, for the reason the proxy gave.
    func tunnelRefusal(_ handle: EasyHandle) -> URLError? {
        let status = handle.info(long: CURLINFO_HTTP_CONNECTCODE)
        guard status >= 300 else { return nil }
        let reason = "it answered \(status) to CONNECT" + (status == 407 ? " (proxy authentication required)" : "")
        return urlError(.cannotConnectToHost, "The proxy refused the tunnel to the host: \(reason)")
    }

    /// A failure AF words itself: `description`, the request's URL as the failing one, and `extra`.
    private func urlError(_ code: URLError.Code, _ description: String, extra: [String: Any] = [:]) -> URLError {
        var userInfo = extra
        userInfo[NSLocalizedDescriptionKey] = description
        if let url = spec.requestURL { userInfo[NSURLErrorFailingURLErrorKey] = url }
        return URLError(code, userInfo: userInfo)
    }

    /// The failure's `URLError` when the host's network explains it: no usable path to connect
    /// over (`notConnectedToInternet`), or a connection reset because its path went
    /// (`networkConnectionLost`, marked `isCausedByNetworkChange`).
    func networkFailure(_ result: CURLcode, message: String?) -> URLError? {
        // The engine's socket set outlives its transfers' outcomes (it is freed after curl's).
        guard let sockets = socketSlot.pointee.sockets, afc_path_sockets_follow(sockets) != 0 else { return nil }
        func failure(_ code: URLError.Code, _ reason: String, changed: Bool = false) -> URLError {
            urlError(code, reason + (message.map { " (\($0))" } ?? ""), extra: changed ? [URLError.networkChangeKey: true] : [:])
        }
        switch result {
        case CURLE_COULDNT_CONNECT where socketSlot.pointee.refused != 0:
            return failure(.notConnectedToInternet, "No usable network path leads to the host: no route, or its interface is down")
        case CURLE_COULDNT_RESOLVE_HOST where afc_path_any_route() == 0:
            return failure(.notConnectedToInternet, "The host name could not be resolved, and this host has no usable route to the network")
        case CURLE_COULDNT_CONNECT, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_HTTP2,
             CURLE_HTTP2_STREAM, CURLE_SSL_CONNECT_ERROR:
            guard afc_path_sockets_drops(sockets) != pathDropsAtStart else { return nil }
            return failure(.networkConnectionLost, "The network connection was lost: the host's network changed", changed: true)
        default:
            return nil
        }
    }

    static func readTimings(_ handle: EasyHandle) -> CurlTimings {
        var timings = CurlTimings()
        timings.nameLookup = handle.info(offset: CURLINFO_NAMELOOKUP_TIME_T)
        timings.connect = handle.info(offset: CURLINFO_CONNECT_TIME_T)
        timings.appConnect = handle.info(offset: CURLINFO_APPCONNECT_TIME_T)
        timings.startTransfer = handle.info(offset: CURLINFO_STARTTRANSFER_TIME_T)
        timings.total = handle.info(offset: CURLINFO_TOTAL_TIME_T)
        timings.httpVersion = handle.info(long: CURLINFO_HTTP_VERSION)
        timings.connectsOpened = handle.info(long: CURLINFO_NUM_CONNECTS)
        timings.uploaded = handle.info(offset: CURLINFO_SIZE_UPLOAD_T)
        timings.downloaded = handle.info(offset: CURLINFO_SIZE_DOWNLOAD_T)
        timings.headerBytes = Int64(handle.info(long: CURLINFO_HEADER_SIZE))
        timings.remoteAddress = handle.info(string: CURLINFO_PRIMARY_IP)
        timings.remotePort = handle.info(long: CURLINFO_PRIMARY_PORT)
        timings.localAddress = handle.info(string: CURLINFO_LOCAL_IP)
        timings.localPort = handle.info(long: CURLINFO_LOCAL_PORT)
        return timings
    }
}
