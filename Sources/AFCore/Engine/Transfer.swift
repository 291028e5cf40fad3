import CCurl
import CCurlShim
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Receives what a transfer produced. Called from curl's callbacks, on the engine thread (or on
/// the thread that drove the transfer's start, see `CurlEngine`): implementations hop to their
/// own queue before doing real work, so the thread stays free for curl.
protocol TransferDelegate: AnyObject, Sendable {
    /// A final (non-1xx) head arrived; only for transfers that report events.
    func transferDidReceiveHead(_ transfer: Transfer, head: ResponseHead)
    /// Body bytes arrived; only for transfers that report events.
    func transferDidReceive(_ transfer: Transfer, data: Data)
    /// Bytes sent or received changed; only for transfers that report progress.
    func transferDidProgress(_ transfer: Transfer, progress: TransferProgress)
    /// The transfer ended: the delegate adds the work for its queue to `batch`, which the engine
    /// queues when it is done with it (at the end of its pass, for the transfers a pass ends).
    /// `engineIsIdle`: no other transfer runs and no command waits, so the delegate may instead
    /// do its work on the engine thread (inside its own queue) rather than waking another thread.
    func transferDidComplete(_ transfer: Transfer, outcome: TransferOutcome, engineIsIdle: Bool,
                             batch: inout CompletionBatch)
}

/// How one exchange ended.
struct TransferOutcome: @unchecked Sendable {
    var head: ResponseHead?
    var body: Data
    var failure: CurlFailure?
    var wasCancelled: Bool
    var timings: CurlTimings
    /// A resumed download's server answered with another range: start again from zero.
    var rangeRejected = false
    /// A streamed body was also kept whole in `body`, for the cache.
    var streamCopyIsWhole = false
    /// A redirect's body ran past `Transfer.maximumRedirectBody`: `body` does not hold it.
    var redirectBodyDropped = false
    /// The file holding the error answer to a resumed download (then not in `body`): the
    /// receiver moves or removes it.
    var answerFile: URL?
}

/// One HTTP exchange on the engine. Its mutable state belongs to the holder of the engine's
/// lock: the engine thread, or a thread driving the transfer's start (see `CurlEngine`).
final class Transfer: @unchecked Sendable {
    /// Largest buffer reserved up front from a Content-Length, so a lying header cannot make us
    /// allocate gigabytes before any byte arrives.
    static let maximumReservation = 8 << 20
    /// Most of a redirect's body kept in memory (for the response if the redirect is not
    /// followed): a server cannot make a download or a stream hold an unbounded body there.
    static let maximumRedirectBody = 1 << 20

    let spec: TransferSpec
    /// The spec's options a pooled handle may keep (worked out by the thread that made the
    /// transfer, so the engine thread does not).
    let standing: StandingOptions
    /// The spec's URL, parsed by the thread that made the transfer (see `ParsedURL`).
    let parsedURL: ParsedURL?
    let delegate: any TransferDelegate
    /// Whether heads and body chunks are reported as they arrive (costs a copy per chunk).
    let reportsEvents: Bool
    /// Whether byte counts are reported as they change.
    let reportsProgress: Bool

    /// Where the transfer is in the engine's hands.
    enum Phase {
        case waiting(paused: Bool)
        case running(EasyHandle)
        case finished
    }

    /// The engine-thread state, behind a pointer: the accessors below reach it without the
    /// dynamic exclusivity check a stored property of a class costs on every access (the
    /// header callback alone made 17 a response). Made in `init`, freed in `deinit`; in between
    /// only the holder of the engine's lock touches it.
    private struct EngineState {
        var phase = Phase.waiting(paused: false)
        var handle: EasyHandle?
        var parser = ResponseHeadParser()
        var body = Data()
        var uploadReader: (any UploadBodyReader)?
        var uploadPump: StreamUploadPump?
        var downloadWriter: FileDownloadWriter?
        var bodyWriter: FileDownloadWriter?
        var answerFailure: URLError?
        var bodyIsStreamed = false
        var streamCopyKept = true
        var heldByGate = false
        var resumedAt: Int64 = 0
        var rangeRejected = false
        var isRedirect = false
        var redirectBodyDropped = false
        var isSuspended = false
        var idleWatch: IdleWatch?
        var lastProgress = TransferProgress()
        var setupFailure: CurlFailure?
        var uploadError: URLError?
        var uploadAFError: AFError?
        var decompression: DecompressionMeter?
        var decompressionError: URLError?
        var trustError: AFError?
        var trustPending: ServerTrustEvaluationPending?
        /// What curl's socket callback is handed (see `NetworkPathWatch`).
        var socketSlot = afc_socket_slot()
        /// The engine's count of connections reset for their path when the transfer started.
        var pathDropsAtStart: UInt = 0
        /// The engine's count of network changes heard when the transfer started.
        var pathGeneration: UInt64 = 0
    }
    private let state: UnsafeMutablePointer<EngineState> = {
        let state = UnsafeMutablePointer<EngineState>.allocate(capacity: 1)
        state.initialize(to: EngineState())
        return state
    }()

    var phase: Phase { get { state.pointee.phase } _modify { yield &state.pointee.phase } }
    private var handle: EasyHandle? { get { state.pointee.handle } _modify { yield &state.pointee.handle } }
    private var parser: ResponseHeadParser { get { state.pointee.parser } _modify { yield &state.pointee.parser } }
    private var body: Data { get { state.pointee.body } _modify { yield &state.pointee.body } }
    private var uploadReader: (any UploadBodyReader)? { get { state.pointee.uploadReader } _modify { yield &state.pointee.uploadReader } }
    private var uploadPump: StreamUploadPump? { get { state.pointee.uploadPump } _modify { yield &state.pointee.uploadPump } }
    private var downloadWriter: FileDownloadWriter? { get { state.pointee.downloadWriter } _modify { yield &state.pointee.downloadWriter } }
    /// The file the current response's body goes to (else memory): the download's, or, for the
    /// error answer to a resumed download, a file of its own, so that neither the partial file
    /// nor memory takes it. `answerFailure` says why such a file could not be opened.
    private var bodyWriter: FileDownloadWriter? { get { state.pointee.bodyWriter } _modify { yield &state.pointee.bodyWriter } }
    private var answerFailure: URLError? { get { state.pointee.answerFailure } _modify { yield &state.pointee.answerFailure } }
    /// The current response's own answer file, when its body goes to one.
    private var answerWriter: FileDownloadWriter? { bodyWriter === downloadWriter ? nil : bodyWriter }
    /// Whether the current response body is handed over in chunks (a final response of a
    /// transfer with `spec.bodyStream`; never a redirect's body).
    private var bodyIsStreamed: Bool { get { state.pointee.bodyIsStreamed } _modify { yield &state.pointee.bodyIsStreamed } }
    /// Whether `body` still holds every streamed byte (for the cache; see `spec.streamCopyLimit`).
    private var streamCopyKept: Bool { get { state.pointee.streamCopyKept } _modify { yield &state.pointee.streamCopyKept } }
    /// Whether the current response's body waits for `spec.responseGate` (a final response only).
    private var heldByGate: Bool { get { state.pointee.heldByGate } _modify { yield &state.pointee.heldByGate } }
    /// Bytes of the file the current response continues (a resumed download's 206), counted in progress.
    private var resumedAt: Int64 { get { state.pointee.resumedAt } _modify { yield &state.pointee.resumedAt } }
    /// Set when a resumed download got another range than asked; the body is refused.
    private var rangeRejected: Bool { get { state.pointee.rangeRejected } _modify { yield &state.pointee.rangeRejected } }
    /// Whether the current response is a redirect (a 3xx with a Location), whose body in memory
    /// is bounded; and whether it went past that bound.
    private var isRedirect: Bool { get { state.pointee.isRedirect } _modify { yield &state.pointee.isRedirect } }
    private var redirectBodyDropped: Bool {
        get { state.pointee.redirectBodyDropped } _modify { yield &state.pointee.redirectBodyDropped }
    }
    /// Receive buffer for bodies written to disk: fewer, larger writes (curl's default is 16 KiB).
    static let downloadBufferSize = 512 << 10
    /// Send buffer for bodies read from a file or a stream: fewer, larger reads and socket
    /// writes (curl's default is 64 KiB).
    static let uploadBufferSize = 512 << 10
    /// Whether the task paused the transfer (so a stream's new data must not resume it).
    var isSuspended: Bool { get { state.pointee.isSuspended } _modify { yield &state.pointee.isSuspended } }
    /// Set when the idle timeout has a fraction of a second, which the engine keeps itself.
    var idleWatch: IdleWatch? { get { state.pointee.idleWatch } _modify { yield &state.pointee.idleWatch } }
    private var lastProgress: TransferProgress { get { state.pointee.lastProgress } _modify { yield &state.pointee.lastProgress } }
    /// Set when the transfer could not be set up (its upload file cannot be read).
    private(set) var setupFailure: CurlFailure? { get { state.pointee.setupFailure } _modify { yield &state.pointee.setupFailure } }
    /// Set when reading the upload body failed mid-transfer; reported instead of curl's abort.
    private var uploadError: URLError? { get { state.pointee.uploadError } _modify { yield &state.pointee.uploadError } }
    /// Why a segmented body could not be read (a form's file gone or changed).
    private var uploadAFError: AFError? { get { state.pointee.uploadAFError } _modify { yield &state.pointee.uploadAFError } }
    /// Set for a content-coded body under a decompression limit; `decompressionError` once it refused.
    private var decompression: DecompressionMeter? { get { state.pointee.decompression } _modify { yield &state.pointee.decompression } }
    private var decompressionError: URLError? { get { state.pointee.decompressionError } _modify { yield &state.pointee.decompressionError } }
    /// Set when the trust evaluator rejected the server; reported instead of curl's TLS error.
    private var trustError: AFError? { get { state.pointee.trustError } _modify { yield &state.pointee.trustError } }
    private var trustPending: ServerTrustEvaluationPending? { get { state.pointee.trustPending } _modify { yield &state.pointee.trustPending } }
    private var pathDropsAtStart: UInt { get { state.pointee.pathDropsAtStart } _modify { yield &state.pointee.pathDropsAtStart } }
    /// The engine's count of network changes heard when the transfer started (set on the engine
    /// thread before it starts; read by its task once it completed).
    private(set) var pathGeneration: UInt64 { get { state.pointee.pathGeneration } set { state.pointee.pathGeneration = newValue } }
    /// Where `socketSlot` lives: in the state's memory, which stays put until `deinit`.
    private var socketSlot: UnsafeMutablePointer<afc_socket_slot> {
        (UnsafeMutableRawPointer(state) + MemoryLayout<EngineState>.offset(of: \EngineState.socketSlot)!)
            .assumingMemoryBound(to: afc_socket_slot.self)
    }

    /// `parsedURLs` and `standingOptions`: the session's, where the URL is found parsed (or parsed now)
    /// and the standing options found made (or made now).
    init(spec: consuming TransferSpec, delegate: any TransferDelegate, reportsEvents: Bool = false, reportsProgress: Bool = false,
         parsedURLs: ParsedURLCache, standingOptions: StandingOptions.Cache) {
        standing = standingOptions.options(for: spec)
        parsedURL = parsedURLs.parsed(spec.url)
        let idleWatch = IdleWatch(idleTimeout: spec.idleTimeout)
        // Moved in last (initializers take their arguments owned): a copy would retain each of
        // its references once more.
        self.spec = spec
        self.delegate = delegate
        self.reportsEvents = reportsEvents
        self.reportsProgress = reportsProgress
        self.idleWatch = idleWatch
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Ends a transfer that never reached curl, letting go of any handle `configure` was given
    /// (the engine pools it again, and only the engine may free it) and of the body's reader,
    /// pump (its stream closed) and file writer.
    func endBeforeStart() {
        uploadReader = nil
        uploadPump?.close()
        uploadPump = nil
        dropAnswerFile()
        downloadWriter = nil
        phase = .finished
        handle = nil
    }

    /// Removes the file of an error answer that will not be reported (another response followed
    /// it in the same exchange, or the exchange never got going).
    private func dropAnswerFile() {
        guard let answerWriter else { return }
        bodyWriter = nil
        DownloadRequest.removeTemporaryFile(answerWriter.url)
    }

    /// Applies the spec to `handle`; false when the transfer cannot start (see `setupFailure`).
    /// `engine` is woken by a stream upload that has new data (the pump holds it until the
    /// transfer ends).
    func configure(_ handle: EasyHandle, engine: CurlEngine) -> Bool {
        self.handle = handle
        phase = .running(handle)
        if let unsafe = spec.unsafe {
            setupFailure = CurlFailure(code: CURLE_BAD_FUNCTION_ARGUMENT, message: unsafe.description,
                                       afError: .createURLRequestFailed(error: unsafe))
            return false
        }
        // HTTP(S) with a host, or a local file as URLSession reads one: curl would guess
        // `http://` for a URL without a scheme, and speaks protocols URLSession does not.
        guard spec.target != .unsupported else {
            let reason = "unsupported URL: only http and https URLs with a host, and file URLs, are supported"
            setupFailure = CurlFailure(code: CURLE_UNSUPPORTED_PROTOCOL, message: reason, localError: URLError(.unsupportedURL, userInfo: [
                NSLocalizedDescriptionKey: reason, NSURLErrorFailingURLErrorKey: spec.requestURL as Any,
            ]))
            return false
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let paths = engine.paths
        handle.prepare(standing: standing) { handle in
            if let sockets = paths.sockets { afc_easy_setopt_path_sockets(handle.raw, sockets) }
            handle.set(CURLOPT_PROTOCOLS_STR, string: "http,https")
            handle.set(CURLOPT_WRITEFUNCTION, callback: transferWriteCallback)
            handle.set(CURLOPT_HEADERFUNCTION, callback: transferHeaderCallback)
            handle.set(CURLOPT_ACCEPT_ENCODING, string: "")
        }
        if !isPlain { handle.markSpecial() }
        if spec.target == .file {
            // The one exchange that may read a local file; the handle is cleared after it.
            handle.set(CURLOPT_PROTOCOLS_STR, string: "file")
            handle.markSpecial()
        }
        handle.setURL(spec.url, parsed: parsedURL)
        handle.set(CURLOPT_WRITEDATA, pointer: context)
        handle.set(CURLOPT_HEADERDATA, pointer: context)
        pathGeneration = paths.generation
        if let sockets = paths.sockets {
            socketSlot.pointee = afc_socket_slot(sockets: sockets, refused: 0)
            pathDropsAtStart = afc_path_sockets_drops(sockets)
            handle.set(CURLOPT_OPENSOCKETDATA, pointer: UnsafeMutableRawPointer(socketSlot))
        }
        if let uploadFile = spec.uploadFile {
            guard let reader = prepare(CURLE_READ_ERROR, { () throws(URLError) in try FileUploadReader(url: uploadFile) })
            else { return false }
            uploadReader = reader
            handle.set(CURLOPT_UPLOAD_BUFFERSIZE, Self.uploadBufferSize)
        }
        if let segments = spec.uploadSegments {
            if let problem = SegmentedUploadReader.problem(in: segments) {
                setupFailure = CurlFailure(code: CURLE_READ_ERROR, message: problem.localizedDescription, afError: problem)
                return false
            }
            uploadReader = SegmentedUploadReader(segments)
            handle.set(CURLOPT_UPLOAD_BUFFERSIZE, Self.uploadBufferSize)
        }
        if let download = spec.download {
            guard let writer = prepare(CURLE_WRITE_ERROR, { () throws(URLError) in try FileDownloadWriter(target: download) })
            else { return false }
            downloadWriter = writer
            handle.set(CURLOPT_BUFFERSIZE, Self.downloadBufferSize)
        }
        if let stream = spec.uploadStream {
            uploadPump = StreamUploadPump(stream: stream) { [weak self] in
                guard let self else { return }
                engine.resumeFlow(self)
            }
            handle.set(CURLOPT_UPLOAD_BUFFERSIZE, Self.uploadBufferSize)
        }
        guard configureTrust(handle, context: context) else { return false }
        configureMethodAndBody(handle)
        if reportsProgress {
            handle.set(CURLOPT_NOPROGRESS, 0)
            afc_easy_setopt_xferinfo_callback(handle.raw, transferProgressCallback)
            handle.set(CURLOPT_XFERINFODATA, pointer: context)
        }
        // "Expect:" keeps curl from waiting for a 100 Continue before sending a body.
        handle.setHeaders(spec.headerLines, then: "Expect:")
        if let credential = spec.credential {
            handle.set(CURLOPT_USERNAME, string: credential.user)
            handle.set(CURLOPT_PASSWORD, string: credential.password)
            handle.set(CURLOPT_HTTPAUTH, afc_httpauth_basic_digest())
        }
        return true
    }

    /// Hands the handshake to the trust evaluator, which also validates the host (so curl does
    /// not), without TLS session resumption (a resumed session skips verification); false when
    /// the manager refused the host.
    private func configureTrust(_ handle: EasyHandle, context: UnsafeMutableRawPointer) -> Bool {
        switch spec.trust {
        case nil:
            return true
        case let .refuse(error):
            setupFailure = CurlFailure(code: CURLE_PEER_FAILED_VERIFICATION, message: error.localizedDescription, afError: error)
            return false
        case .evaluate:
            afc_easy_enable_trust_callback(handle.raw, context)
            handle.set(CURLOPT_SSL_VERIFYHOST, 0)
            handle.set(CURLOPT_SSL_SESSIONID_CACHE, 0)
            return true
        }
    }

    /// Engine thread, during the handshake: whether the evaluator accepts `trust`.
    fileprivate func evaluateTrust(_ trust: ServerTrust) -> Bool {
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

    /// Opens a file the transfer needs; on failure records `setupFailure` and returns nil.
    private func prepare<Value>(_ code: CURLcode, _ open: () throws(URLError) -> Value) -> Value? {
        do {
            return try open()
        } catch {
            setupFailure = CurlFailure(code: code, message: error.localizedDescription, localError: error)
            return nil
        }
    }

    /// Whether the transfer sets no option beyond the standing ones and its own URL, header
    /// lines, callback context and `GET`: the handle can then serve the next one uncleared.
    private var isPlain: Bool {
        spec.method == "GET" && spec.body == nil && spec.uploadFile == nil && spec.uploadStream == nil && spec.uploadSegments == nil
            && spec.download == nil && spec.trust == nil && spec.credential == nil && !reportsProgress
            && spec.responseGate == nil
    }

    private func configureMethodAndBody(_ handle: EasyHandle) {
        if let uploadReader {
            return configureStreamedUpload(length: uploadReader.length, seekable: true, on: handle)
        }
        if uploadPump != nil {
            return configureStreamedUpload(length: statedContentLength ?? -1, seekable: false, on: handle)
        }
        switch (spec.method, spec.body) {
        case ("GET", nil):
            handle.set(CURLOPT_HTTPGET, 1)
        case ("HEAD", _):
            handle.set(CURLOPT_NOBODY, 1)
        case let (method, body?):
            setPostFields(body, on: handle)
            if method != "POST" { handle.set(CURLOPT_CUSTOMREQUEST, string: method) }
        case ("POST", nil):
            setPostFields(Data(), on: handle)
        case let (method, nil):
            handle.set(CURLOPT_CUSTOMREQUEST, string: method)
        }
    }

    /// A body curl pulls through its buffer as it sends: from a file (which curl can rewind to
    /// resend) or a stream (length -1 when unknown: chunked on HTTP/1.1).
    private func configureStreamedUpload(length: Int64, seekable: Bool, on handle: EasyHandle) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        handle.set(CURLOPT_UPLOAD, 1)
        handle.set(CURLOPT_INFILESIZE_LARGE, offset: length)
        if spec.method != "PUT" { handle.set(CURLOPT_CUSTOMREQUEST, string: spec.method) }
        handle.set(CURLOPT_READFUNCTION, callback: transferReadCallback)
        handle.set(CURLOPT_READDATA, pointer: context)
        if seekable {
            afc_easy_setopt_seek_callback(handle.raw, transferSeekCallback)
            handle.set(CURLOPT_SEEKDATA, pointer: context)
        }
    }

    /// The Content-Length the request's own headers state, if any.
    private var statedContentLength: Int64? {
        spec.headerLines.lazy.compactMap { line -> Int64? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, String(parts[0]).equalsIgnoringASCIICase("Content-Length") else { return nil }
            return Int64(parts[1].trimmingCharacters(in: .whitespaces))
        }.first
    }

    /// A body curl copies and can resend by itself when a reused connection turns out dead.
    private func setPostFields(_ body: Data, on handle: EasyHandle) {
        handle.set(CURLOPT_POST, 1)
        handle.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(body.count))
        if body.isEmpty {
            handle.set(CURLOPT_COPYPOSTFIELDS, string: "")
            return
        }
        body.withUnsafeBytes { buffer in
            handle.set(CURLOPT_COPYPOSTFIELDS, pointer: UnsafeMutableRawPointer(mutating: buffer.baseAddress))
        }
    }

    // MARK: Callbacks (engine thread)

    fileprivate func receiveHeaderLine(_ line: UnsafeBufferPointer<UInt8>) {
        idleWatch?.noteActivity()
        guard parser.consume(line), let head = parser.completed else { return }
        body = Data()
        decompression = DecompressionMeter(limit: spec.decompressionLimit, head: head)
        dropAnswerFile()
        bodyWriter = nil
        answerFailure = nil
        resumedAt = 0
        let isFinal = !(RedirectRules.redirectStatusCodes.contains(head.statusCode) && head.value(for: "Location") != nil)
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
            if !bodyIsStreamed, let length = head.value(for: "Content-Length").flatMap(Int.init), length > 0 {
                body = Data(capacity: min(length, isRedirect ? Self.maximumRedirectBody : Self.maximumReservation))
            }
        }
        if reportsEvents || spec.bodyStream != nil || heldByGate { delegate.transferDidReceiveHead(self, head: head) }
    }

    /// Fills curl's upload buffer: from the file, or from the stream pump (pausing when it is
    /// empty); `afc_readfunc_pause()`/`afc_readfunc_abort()` as curl expects.
    fileprivate func readBody(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
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

    fileprivate func seekBody(to offset: Int64) -> Bool {
        uploadReader?.seek(to: offset) ?? false
    }

    fileprivate func updateProgress(_ progress: TransferProgress) {
        var progress = progress
        if resumedAt > 0 { progress = progress.resumed(at: resumedAt) }
        guard progress != lastProgress else { return }
        lastProgress = progress
        delegate.transferDidProgress(self, progress: progress)
    }

    /// What curl's write callback answers for a chunk.
    fileprivate enum Intake {
        /// Taken.
        case taken
        /// Not taken now: curl pauses the transfer and offers the chunk again on resume.
        case pause
        /// Refused: the transfer stops (the file could not take it, or the range was wrong).
        case refused
    }

    /// Takes a chunk of the response body.
    fileprivate func receiveBody(_ bytes: UnsafeRawPointer, count: Int) -> Intake {
        let intake = takeBody(bytes, count: count)
        if idleWatch != nil {
            idleWatch?.noteActivity()
            if case .pause = intake { idleWatch?.holding = true }
        }
        return intake
    }

    private func takeBody(_ bytes: UnsafeRawPointer, count: Int) -> Intake {
        if rangeRejected { return .refused }
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
    private func withinDecompressionLimit(_ count: Int) -> Bool {
        guard decompression?.admit(count, received: { handle?.info(offset: CURLINFO_SIZE_DOWNLOAD_T) ?? 0 }) == false
        else { return true }
        decompressionError = decompression?.failure(url: spec.requestURL)
        return false
    }

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
                if result == CURLE_COULDNT_CONNECT, let socket = spec.unixSocketPath {
                    message = "cannot connect to the Unix socket at \(socket)" + (message.map { " (\($0))" } ?? "")
                }
                failure = CurlFailure(code: result, message: message,
                                      localError: uploadError ?? writeFailure ?? decompressionError ?? networkFailure(result, message: message),
                                      afError: trustError ?? uploadAFError, trustPending: trustPending)
            }
        }
        var outcome = TransferOutcome(head: parser.completed, body: body, failure: failure,
                                      wasCancelled: cancelled, timings: timings, rangeRejected: rangeRejected)
        outcome.streamCopyIsWhole = spec.streamCopyLimit != nil && streamCopyKept
        outcome.redirectBodyDropped = redirectBodyDropped
        outcome.answerFile = answerWriter?.url
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

    /// The failure's `URLError` when the host's network explains it: no usable path to connect
    /// over (`notConnectedToInternet`), or a connection reset because its path went
    /// (`networkConnectionLost`, marked `isCausedByNetworkChange`).
    private func networkFailure(_ result: CURLcode, message: String?) -> URLError? {
        // The engine's socket set outlives its transfers' outcomes (it is freed after curl's).
        guard let sockets = socketSlot.pointee.sockets, afc_path_sockets_follow(sockets) != 0 else { return nil }
        func failure(_ code: URLError.Code, _ reason: String, changed: Bool = false) -> URLError {
            var userInfo: [String: Any] = [NSLocalizedDescriptionKey: reason + (message.map { " (\($0))" } ?? "")]
            if let url = spec.requestURL { userInfo[NSURLErrorFailingURLErrorKey] = url }
            if changed { userInfo[URLError.networkChangeKey] = true }
            return URLError(code, userInfo: userInfo)
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

    private static func readTimings(_ handle: EasyHandle) -> CurlTimings {
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

private func transfer(from context: UnsafeMutableRawPointer?) -> Transfer {
    Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
}

private let transferWriteCallback: afc_data_callback = { buffer, size, count, context in
    let length = size * count
    guard let buffer, length > 0 else { return length }
    switch transfer(from: context).receiveBody(buffer, count: length) {
    case .taken: return length
    case .pause: return afc_writefunc_pause()
    case .refused: return 0  // curl stops with CURLE_WRITE_ERROR; the writer's error is reported
    }
}

private let transferHeaderCallback: afc_data_callback = { buffer, size, count, context in
    let length = size * count
    if let buffer {
        let line = UnsafeBufferPointer(start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: length)
        transfer(from: context).receiveHeaderLine(line)
    }
    return length
}

private let transferReadCallback: afc_data_callback = { buffer, size, count, context in
    guard let buffer else { return 0 }
    return transfer(from: context).readBody(into: buffer, count: size * count)
}

private let transferSeekCallback: afc_seek_callback = { context, offset, origin in
    guard origin == SEEK_SET else { return CURL_SEEKFUNC_CANTSEEK }
    return transfer(from: context).seekBody(to: Int64(offset)) ? CURL_SEEKFUNC_OK : CURL_SEEKFUNC_FAIL
}

/// The process-wide trust callback: the context is the transfer whose handshake it is.
let transferTrustCallback: afc_trust_callback = { context, certificates, lengths, count, trusted, error, staple, stapleLength in
    let chain = (0..<count).map { Data(bytes: certificates[$0], count: lengths[$0]) }
    let transfer = transfer(from: context)
    // The host the handshake verifies (`localhost` for an `https+unix` URL, whose host is a path).
    var host = transfer.spec.requestURL?.host ?? ""
    if case let .evaluate(_, trustHost) = transfer.spec.trust { host = trustHost }
    let trust = ServerTrust(certificateData: chain, host: host,
                            defaultEvaluationSucceeded: trusted != 0,
                            defaultEvaluationError: error.map { String(cString: $0) },
                            stapledOCSPResponse: staple.map { Data(bytes: $0, count: stapleLength) })
    return transfer.evaluateTrust(trust) ? 1 : 0
}

private let transferProgressCallback: afc_xferinfo_callback = { context, downloadTotal, downloaded, uploadTotal, uploaded in
    transfer(from: context).updateProgress(TransferProgress(
        bytesSent: Int64(uploaded), bytesExpectedToSend: Int64(uploadTotal),
        bytesReceived: Int64(downloaded), bytesExpectedToReceive: Int64(downloadTotal)))
    return 0
}

/// Byte counts of one exchange, as curl reports them (0 when unknown).
struct TransferProgress: Sendable, Equatable {
    var bytesSent: Int64 = 0
    var bytesExpectedToSend: Int64 = 0
    var bytesReceived: Int64 = 0
    var bytesExpectedToReceive: Int64 = 0

    /// The counts of an exchange that continues a download from `offset`: received bytes count
    /// from the start of the file. A total past `Int64.max` (a server's Content-Length may be
    /// anything up to it) reads as unknown (0), a count past it as `Int64.max`.
    func resumed(at offset: Int64) -> TransferProgress {
        var resumed = self
        let (received, receivedOverflow) = bytesReceived.addingReportingOverflow(offset)
        resumed.bytesReceived = receivedOverflow ? .max : received
        if bytesExpectedToReceive > 0 {
            let (expected, overflow) = bytesExpectedToReceive.addingReportingOverflow(offset)
            resumed.bytesExpectedToReceive = overflow ? 0 : expected
        }
        return resumed
    }
}
