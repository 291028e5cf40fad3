import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// What a task does with its exchanges: follows redirects, offers responses to the cache, and
// reports the end. Runs on the task's queue, except the two engine-thread reports.
extension SessionTask: TransferDelegate {
    func transferDidReceiveHead(_ transfer: Transfer, head: ResponseHead) {
        guard !RedirectRules.redirectStatusCodes.contains(head.statusCode) || !head.contains("Location"),
              let url = transfer.spec.requestURL, let response = head.httpResponse(for: url) else { return }
        delegate?.task(self, didReceiveResponse: response)
    }

    func transferDidReceive(_ transfer: Transfer, data: Data) {
        delegate?.task(self, didReceive: data)
    }

    func transferDidProgress(_ transfer: Transfer, progress: TransferProgress) {
        delegate?.task(self, didUpdate: progress)
    }

    func transferDidComplete(_ transfer: Transfer, outcome: TransferOutcome, engineIsIdle: Bool,
                             batch: inout CompletionBatch) {
        // An idle engine runs the completion itself, inside the task's queue (sequential use:
        // one thread fewer to wake per request), and resumes an awaiting task once it left that
        // queue; under load the engine must stay free for curl.
        if engineIsIdle {
            engine.deferredResumptions.collecting { queue.sync { complete(transfer, outcome: outcome) } }
        } else if let handlerQueue = delegate?.completionQueue {
            // The handler's queue runs the completion inside the task's queue (a request's own,
            // which nothing else holds for long) and then the handler, where it already is.
            handOffs.record()
            batch.add(on: handlerQueue) {
                DeferredResumptions.collecting(runningOn: handlerQueue) {
                    self.queue.sync { self.complete(transfer, outcome: outcome) }
                }
            }
        } else {
            handOffs.record()
            batch.add(on: queue) { self.complete(transfer, outcome: outcome) }
        }
    }

    private func complete(_ transfer: Transfer, outcome: TransferOutcome) {
        let url = transfer.spec.requestURL
        // The head as received; its HTTPURLResponse is built only if someone reads it.
        let response = url.flatMap { url in outcome.head.map { ReceivedResponse(head: $0, url: url) } }
        if let response { configuration.storeCookies(from: response) }

        let (request, hopCount, cancelled) = mutableState.withLock { state in
            state.transactions.append(outcome.timings.transactionMetrics(
                request: state.currentRequest, response: response, start: state.hopStart))
            state.bytesReceived += outcome.timings.downloaded
            state.bytesSent += outcome.timings.uploaded
            state.answerFile = outcome.answerFile
            return (state.currentRequest, state.transactions.count, state.state == .canceling)
        }

        if !cancelled, !outcome.wasCancelled, outcome.rangeRejected {
            // The partial file cannot be continued: download the whole body again.
            var whole = request
            whole.setValue(nil, forHTTPHeaderField: "Range")
            whole.setValue(nil, forHTTPHeaderField: "If-Range")
            return startHop(whole, after: request, response: response, body: outcome.body, restartingDownload: true)
        }
        let failure = outcome.failure
        if !cancelled, !outcome.wasCancelled, let pending = failure?.trustPending,
           mutableState.withLock({ !$0.fetchedForTrust }) {
            // The evaluator needs something fetched: off the engine thread, then a new connection.
            DispatchQueue.global().async {
                pending.fetch()
                self.queue.async(recording: self.handOffs) {
                    self.startHop(request, after: request, response: nil, body: Data(), fetchedForTrust: true)
                }
            }
            return
        }
        if !cancelled, !outcome.wasCancelled, let failure, waitsForConnectivity(after: failure) {
            return waitForConnectivity(request, failure: failure, since: transfer.pathGeneration)
        }
        if !cancelled, !outcome.wasCancelled, failure == nil, let response,
           let redirect = RedirectRules.outcome(after: request, response: response) {
            let next: URLRequest
            switch redirect {
            case let .refuse(error): return finish(request: request, response: response, data: outcome.body, error: error)
            case let .follow(request): next = request
            }
            guard hopCount <= TaskConfiguration.maximumRedirects else {
                let error = URLError(.httpTooManyRedirects, userInfo: [NSURLErrorFailingURLErrorKey: next.url as Any])
                return finish(request: request, response: response, data: outcome.body, error: error)
            }
            guard let delegate else {
                return finish(request: request, response: response, data: outcome.body,
                              error: outcome.redirectBodyDropped ? Self.redirectBodyTooLarge(url) : nil)
            }
            let chosen = CalledOnce<URLRequest?> { chosen in
                // At once when the handler answered on the task's queue (the default one does).
                self.queue.runOrAsync(recording: self.handOffs) {
                    self.follow(chosen, after: request, response: response, body: outcome.body,
                                bodyDropped: outcome.redirectBodyDropped)
                }
            }
            delegate.task(self, willRedirectTo: next, response: response.httpResponse) { chosen($0) }
            return
        }

        var error: (any Error)?
        if cancelled || outcome.wasCancelled {
            error = URLError(.cancelled, userInfo: [NSURLErrorFailingURLErrorKey: url as Any])
        } else if let failure {
            if let pending = failure.trustPending {
                error = AFError.serverTrustEvaluationFailed(reason: .customEvaluationFailed(error: pending))
            } else {
                error = failure.afError ?? failure.urlError(failingURL: url)
            }
        }
        // A streamed body the transfer did not keep whole (too large, or no HTTP cache to copy it
        // for) is not offered to the configuration's cache. Without a cache there is nothing to
        // decide (and no lock to take on the stream path).
        if bodyStream != nil, configuration.responseCache != nil, !outcome.streamCopyIsWhole {
            mutableState.withLock { $0.cacheMayStore = false }
        }
        finish(request: request, response: response, data: outcome.body, error: error)
    }

    private func follow(_ next: URLRequest?, after request: URLRequest, response: ReceivedResponse, body: Data,
                        bodyDropped: Bool) {
        guard let next else {
            // Not followed: the redirect is the response, and its body must be whole.
            if bodyDropped {
                return finish(request: request, response: response, data: body, error: Self.redirectBodyTooLarge(request.url))
            }
            if delegate?.awaitsResponseDisposition == true {
                return holdAsFinal(HeldAnswer(request: request, response: response, body: body))
            }
            reportAsFinal(response, body: body)
            return finish(request: request, response: response, data: body, error: nil)
        }
        if upload?.stream != nil, next.httpMethod == request.httpMethod {
            // A 307/308 asks for the body again, and a stream can be read only once.
            let error = URLError(.requestBodyStreamExhausted, userInfo: [NSURLErrorFailingURLErrorKey: next.url as Any])
            return finish(request: request, response: response, data: body, error: error)
        }
        startHop(next, after: request, response: response, body: body)
    }

    /// Who hears of a response that became final after its exchange (a redirect not followed,
    /// a cached answer): a stream, or a delegate observing transfer events; nil if no one.
    private var lateAnswerListener: (any SessionTaskDelegate)? {
        guard let delegate, delegate.observesTransferEvents || bodyStream != nil else { return nil }
        return delegate
    }

    /// A response that became final after its exchange (a redirect not followed, held back
    /// while it might have been followed; a cached answer): its head and body are reported now.
    func reportAsFinal(_ response: ReceivedResponse, body: Data) {
        guard let listener = lateAnswerListener else { return }
        listener.task(self, didReceiveResponse: response.httpResponse)
        reportFinalBody(body, to: listener)
    }

    /// Hands a final answer's body to the stream's flow control and to `listener`.
    private func reportFinalBody(_ body: Data, to listener: any SessionTaskDelegate) {
        guard !body.isEmpty else { return }
        _ = bodyStream?.admit(body.count)
        listener.task(self, didReceive: body)
    }

    /// A redirect not followed, for a delegate that decides on a response's head before its
    /// body: its head goes to the delegate, and the task ends once the delegate lets the
    /// body in (`releaseResponse(heldAnswer:)`, and the task runs) or cancels (`cancel()`), as a
    /// final response's would.
    private func holdAsFinal(_ answer: HeldAnswer) {
        let delegate = mutableState.withLock { state -> (any SessionTaskDelegate)? in
            guard state.state == .running || state.state == .suspended, let delegate = state.delegate else { return nil }
            state.heldAnswers += 1
            var held = answer
            held.number = state.heldAnswers
            state.heldAnswer = held
            return delegate
        }
        guard let delegate else { return cancelHeldAnswer(answer) }
        delegate.task(self, didReceiveResponse: answer.response.httpResponse)
    }

    /// The delegate let the held answer's body in: it is reported, and the task ends with it.
    func endHeldAnswer(_ held: HeldAnswer) {
        if let listener = lateAnswerListener { reportFinalBody(held.body, to: listener) }
        finish(request: held.request, response: held.response, data: held.body, error: nil)
    }

    /// The task was cancelled while its held answer waited: it ends cancelled, without the body.
    func cancelHeldAnswer(_ held: HeldAnswer) {
        let error = URLError(.cancelled, userInfo: [NSURLErrorFailingURLErrorKey: held.request.url as Any])
        finish(request: held.request, response: held.response, data: Data(), error: error)
    }

    /// A redirect not followed whose body was larger than AF keeps of a redirect's.
    static func redirectBodyTooLarge(_ url: URL?) -> URLError {
        URLError(.dataLengthExceedsMaximum, userInfo: [
            NSURLErrorFailingURLErrorKey: url as Any,
            NSLocalizedDescriptionKey: "The redirect was not followed and its body is larger than the "
                + "\(Transfer.maximumRedirectBody) bytes AF keeps of a redirect's body."])
    }

    /// Sends `next` as the task's new exchange, unless the task was cancelled meanwhile.
    func startHop(_ next: URLRequest, after request: URLRequest, response: ReceivedResponse?, body: Data,
                          restartingDownload: Bool = false, fetchedForTrust: Bool = false, sending: TransferSpec? = nil) {
        let reporting = currentReporting
        let trust = configuration.trustRequirement(for: next.url)
        let (transfer, staleAnswer) = mutableState.withLock { state -> (Transfer?, URL?) in
            let staleAnswer = state.answerFile
            state.answerFile = nil
            guard state.state == .running || state.state == .suspended else { return (nil, staleAnswer) }
            state.currentRequest = next
            state.hopStart = Date()
            state.fetchedForTrust = fetchedForTrust
            if restartingDownload { state.download?.resumeOffset = 0 }
            let transfer = makeTransfer(for: next, download: state.download, reporting: reporting, trust: trust,
                                        copyingStreamForCache: state.cacheMayStore, sending: sending)
            state.transfer = transfer
            return (transfer, staleAnswer)
        }
        if let staleAnswer { DownloadRequest.removeTemporaryFile(staleAnswer) }
        guard let transfer else {
            let error = URLError(.cancelled, userInfo: [NSURLErrorFailingURLErrorKey: next.url as Any])
            return finish(request: request, response: response, data: body, error: error)
        }
        if state == .suspended { engine.pause(transfer) }
        handOffs.record()
        engine.start(transfer)
    }

    func finish(request: URLRequest, response: ReceivedResponse?, data: Data, error: (any Error)?) {
        // Without a cache nothing is refreshed, stored or was revalidated.
        guard configuration.responseCache != nil else {
            return deliver(request: request, response: response, data: data, error: error)
        }
        let httpCache = configuration.httpCache
        let (revalidating, mayStore, download, transfer) = mutableState.withLock { state in
            defer { state.cacheRevalidating = nil }
            return (state.cacheRevalidating, state.cacheMayStore, state.download, state.transfer)
        }
        let spec = httpCache == nil ? nil : transfer?.spec
        // What this exchange sent decides whose entries it refreshes or adds.
        let credentials = spec.map(CacheCredentials.init(sentBy:)) ?? .anonymous
        if error == nil, let response, let cache = httpCache {
            invalidateIfUnsafe(request: request, response: response, in: cache)
            if response.statusCode == 304, let revalidating, revalidating.url == request.url {
                return answerRevalidated(revalidating, by: response, request: request, credentials: credentials, in: cache)
            }
        }
        // Bodies held in memory (a stream's kept copy among them) are offered to the cache: not
        // downloads or uploads.
        guard error == nil, let response, let storage = configuration.responseCache, let delegate, mayStore,
              usesHTTPCache(download: download),
              CacheStoreRules.mayStore(request: request, statusCode: response.statusCode, headers: response.headers) else {
            return deliver(request: request, response: response, data: data, error: error)
        }
        let fields = spec.map(CacheRequestFields.init(sentBy:)) ?? CacheRequestFields(request)
        let proposed = CachedURLResponse(response: response.httpResponse, data: data, userInfo: nil, storagePolicy: .allowed)
        let chosen = CalledOnce<CachedURLResponse?> { chosen in
            if let chosen { self.store(chosen, for: request, fields: fields, credentials: credentials, in: storage) }
            self.queue.runOrAsync(recording: self.handOffs) {
                self.deliver(request: request, response: response, data: data, error: nil)
            }
        }
        delegate.task(self, willCacheResponse: proposed) { chosen($0) }
    }

    func deliver(request: URLRequest, response: ReceivedResponse?, data: Data, error: (any Error)?) {
        // The end is the last report: the delegate is let go with it.
        let (metrics, download, answerFile, delegate) = mutableState.withLock { state in
            state.state = .completed
            state.response = response
            state.error = error
            state.transfer = nil
            defer {
                state.delegate = nil
                state.answerFile = nil
            }
            return (TaskMetrics(taskInterval: Self.interval(from: startDate, to: Date()),
                                redirectCount: state.transactions.count - 1,
                                transactionMetrics: state.transactions), state.download, state.answerFile, state.delegate)
        }
        let result = Result(request: request, response: response, data: data, error: error, metrics: metrics,
                            download: download, answerFile: answerFile)
        guard let delegate else {
            // No one to move or remove the answer's file.
            if let answerFile { DownloadRequest.removeTemporaryFile(answerFile) }
            return
        }
        delegate.task(self, didCompleteWith: result)
    }
}

extension SessionTask {
    /// A redirect not followed, waiting for the delegate's decision on its head.
    struct HeldAnswer: @unchecked Sendable {
        var request: URLRequest
        var response: ReceivedResponse
        var body: Data
        /// Which of the task's held answers this is (a late decision on an earlier head must
        /// not end it).
        var number = 0
    }

    /// The task's interval from `start` to `end` by the wall clock, which may have stepped back
    /// in between (an NTP step, a restored VM): empty then, where `DateInterval` would trap.
    static func interval(from start: Date, to end: Date) -> DateInterval {
        DateInterval(start: start, end: max(start, end))
    }
}
