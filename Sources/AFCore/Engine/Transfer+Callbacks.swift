import CCurl
import CCurlShim
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// What curl's callbacks do, on the engine thread while the exchange runs: heads, body chunks
// (to memory, a file or a stream), upload reads, progress and the trust decision.
extension Transfer {
    func receiveHeaderLine(_ line: UnsafeBufferPointer<UInt8>) {
        idleWatch?.noteActivity()
        guard parser.consume(line), let head = parser.completed else { return }
        body = Data()
        decompression = DecompressionMeter(limit: spec.decompressionLimit, head: head)
        dropAnswerFile()
        bodyWriter = nil
        answerFailure = nil
        resumedAt = 0
        let isFinal = !(RedirectRules.redirectStatusCodes.contains(head.statusCode) && head.contains("Location"))
        isRedirect = !isFinal
        redirectBodyDropped = false
        bodyIsStreamed = spec.bodyStream != nil && isFinal
        heldByGate = spec.responseGate != nil && isFinal
        let placement = downloadWriter.map { _ in
            DownloadPlacement(statusCode: head.statusCode, contentRange: head.value(for: "Content-Range"),
                              resumeOffset: spec.download?.resumeOffset ?? 0)
        } ?? .memory
        switch placement {
        case let .file(keeping: length):
            downloadWriter?.start(keeping: length)
            bodyWriter = downloadWriter
            resumedAt = length
        case .rangeRejected:
            rangeRejected = true
        case .memory where downloadWriter != nil && !isRedirect:
            // A resumed download's error answer: to a file of its own, however large.
            do {
                bodyWriter = try FileDownloadWriter(target: DownloadTarget(file: DownloadRequest.newTemporaryFile()))
            } catch {
                answerFailure = error
            }
        case .memory:
            if !bodyIsStreamed, let length = head.decimal(for: "Content-Length"), length > 0 {
                body = Data(capacity: min(length, isRedirect ? Self.maximumRedirectBody : Self.maximumReservation))
            }
        }
        // A head after a held challenge means curl answered it: it was not the response.
        if head.statusCode == 401, spec.credential != nil {
            heldChallenge = head
        } else {
            if holdsChallenge { heldChallenge = nil }
            if reportsHeads { delegate.transferDidReceiveHead(self, head: head) }
        }
    }

    /// Whether heads are handed to the delegate as they arrive.
    var reportsHeads: Bool { reportsEvents || spec.bodyStream != nil || heldByGate }

    /// The held challenge is the response (its body arrived, or the exchange ended well with
    /// it): reported now, as its head would have been.
    func releaseHeldChallenge() {
        guard let head = heldChallenge else { return }
        heldChallenge = nil
        if reportsHeads { delegate.transferDidReceiveHead(self, head: head) }
    }

    /// Fills curl's upload buffer: from the file, or from the stream pump (pausing when it is
    /// empty); `afc_readfunc_pause()`/`afc_readfunc_abort()` as curl expects.
    func readBody(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        idleWatch?.noteActivity()
        if let uploadPump {
            switch uploadPump.take(into: buffer, count: count) {
            case let .bytes(length): return length
            case .end: return 0
            case .pause:
                idleWatch?.holding = true  // waiting for the app's stream, not for the server
                return afc_readfunc_pause()
            case let .failure(error):
                uploadError = URLError(.cannotLoadFromNetwork, userInfo: [NSUnderlyingErrorKey: error])
                return afc_readfunc_abort()
            }
        }
        guard let uploadReader else { return 0 }
        let read = uploadReader.read(into: buffer, count: count)
        if read < 0 {
            if let failure = uploadReader.failure { uploadAFError = failure } else { uploadError = URLError(.cannotOpenFile) }
        }
        return read < 0 ? afc_readfunc_abort() : read
    }

    func seekBody(to offset: Int64) -> Bool {
        uploadReader?.seek(to: offset) ?? false
    }

    /// New counts from curl: reported at once, or held until the throttle's interval since the
    /// last report has passed.
    func updateProgress(_ progress: TransferProgress) {
        var progress = progress
        if resumedAt > 0 { progress = progress.resumed(at: resumedAt) }
        guard progress != (heldProgress ?? lastProgress) else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        if let progressThrottle, now &- progressReportedAt < ProgressThrottle.interval {
            progressThrottle.hold(self)
            heldProgress = progress
            return
        }
        report(progress, now: now)
    }

    /// When the held counts are due (uptime nanoseconds), nil when none are held.
    var heldProgressDue: UInt64? {
        heldProgress == nil ? nil : progressReportedAt &+ ProgressThrottle.interval
    }

    /// Reports the held counts, if any.
    func reportHeldProgress(now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        if let heldProgress { report(heldProgress, now: now) }
    }

    private func report(_ progress: TransferProgress, now: UInt64) {
        heldProgress = nil
        lastProgress = progress
        progressReportedAt = now
        delegate.transferDidProgress(self, progress: progress)
    }

    /// What curl's write callback answers for a chunk.
    enum Intake {
        /// Taken.
        case taken
        /// Not taken now: curl pauses the transfer and offers the chunk again on resume.
        case pause
        /// Refused: the transfer stops (the file could not take it, or the range was wrong).
        case refused
    }

    /// Takes a chunk of the response body.
    func receiveBody(_ bytes: UnsafeRawPointer, count: Int) -> Intake {
        let intake = takeBody(bytes, count: count)
        if idleWatch != nil {
            idleWatch?.noteActivity()
            if case .pause = intake { idleWatch?.holding = true }
        }
        return intake
    }

    func takeBody(_ bytes: UnsafeRawPointer, count: Int) -> Intake {
        if rangeRejected { return .refused }
        if holdsChallenge { releaseHeldChallenge() }
        if heldByGate {
            guard spec.responseGate?.isOpen == true else { return .pause }  // offered again on release
            heldByGate = false
        }
        if bodyIsStreamed, let flow = spec.bodyStream {
            guard flow.admit(count) else { return .pause }  // offered again later: counted then
            guard withinDecompressionLimit(count) else { return .refused }
            delegate.transferDidReceive(self, data: Data(bytes: bytes, count: count))
            if let limit = spec.streamCopyLimit, streamCopyKept {
                if body.count + count <= limit {
                    body.append(bytes.assumingMemoryBound(to: UInt8.self), count: count)
                } else {
                    streamCopyKept = false
                    body = Data()
                }
            }
            return .taken
        }
        guard withinDecompressionLimit(count) else { return .refused }
        if let bodyWriter {
            guard bodyWriter.write(bytes, count: count) else { return .refused }
        } else if answerFailure != nil {
            return .refused
        } else if isRedirect, redirectBodyDropped || body.count + count > Self.maximumRedirectBody {
            if !redirectBodyDropped {
                redirectBodyDropped = true
                body = Data()
            }
        } else {
            body.append(bytes.assumingMemoryBound(to: UInt8.self), count: count)
        }
        // A redirect's body is reported only if the redirect is not followed (by the task).
        if reportsEvents, !isRedirect { delegate.transferDidReceive(self, data: Data(bytes: bytes, count: count)) }
        return .taken
    }

    /// Counts `count` decoded bytes against the decompression limit, if one applies; false (with
    /// `decompressionError` set) once the body expanded past it.
    func withinDecompressionLimit(_ count: Int) -> Bool {
        guard decompression?.admit(count, received: { handle?.info(offset: CURLINFO_SIZE_DOWNLOAD_T) ?? 0 }) == false
        else { return true }
        decompressionError = decompression?.failure(url: spec.requestURL)
        return false
    }

    /// Engine thread, during the handshake: whether the evaluator accepts `trust`.
    func evaluateTrust(_ trust: ServerTrust) -> Bool {
        guard case let .evaluate(evaluator, host) = spec.trust else { return true }
        do {
            try evaluator.evaluate(trust, forHost: host)
            return true
        } catch let pending as ServerTrustEvaluationPending {
            trustPending = pending
            return false
        } catch {
            trustError = error.asAFError(or: .serverTrustEvaluationFailed(reason: .customEvaluationFailed(error: error)))
            return false
        }
    }
}
