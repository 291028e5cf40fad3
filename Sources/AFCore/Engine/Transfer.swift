import CCurl
import CCurlShim
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
    /// The spec's options a pooled handle may keep (see `TaskConfiguration.standingOptions`),
    /// kept apart so the engine thread reads them without copying the spec.
    let standing: StandingOptions
    /// The spec's URL as the session parsed it (see `ParsedURL`).
    var parsedURL: ParsedURL? { spec.parsedURL }
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
        @OutOfLine var heldChallenge: ResponseHead?
        var isSuspended = false
        var idleWatch: IdleWatch?
        var lastProgress = TransferProgress()
        var heldProgress: TransferProgress?
        var isInProgressThrottle = false
        var progressReportedAt: UInt64 = 0
        var progressThrottle: ProgressThrottle?
        var setupFailure: CurlFailure?
        var uploadError: URLError?
        var watchFailure: URLError?
        @OutOfLine var uploadAFError: AFError?
        var decompression: DecompressionMeter?
        var decompressionError: URLError?
        @OutOfLine var trustError: AFError?
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
    var handle: EasyHandle? { get { state.pointee.handle } _modify { yield &state.pointee.handle } }
    var parser: ResponseHeadParser { get { state.pointee.parser } _modify { yield &state.pointee.parser } }
    var body: Data { get { state.pointee.body } _modify { yield &state.pointee.body } }
    var uploadReader: (any UploadBodyReader)? { get { state.pointee.uploadReader } _modify { yield &state.pointee.uploadReader } }
    var uploadPump: StreamUploadPump? { get { state.pointee.uploadPump } _modify { yield &state.pointee.uploadPump } }
    var downloadWriter: FileDownloadWriter? { get { state.pointee.downloadWriter } _modify { yield &state.pointee.downloadWriter } }
    /// The file the current response's body goes to (else memory): the download's, or, for the
    /// error answer to a resumed download, a file of its own, so that neither the partial file
    /// nor memory takes it. `answerFailure` says why such a file could not be opened.
    var bodyWriter: FileDownloadWriter? { get { state.pointee.bodyWriter } _modify { yield &state.pointee.bodyWriter } }
    var answerFailure: URLError? { get { state.pointee.answerFailure } _modify { yield &state.pointee.answerFailure } }
    /// The current response's own answer file, when its body goes to one.
    var answerWriter: FileDownloadWriter? { bodyWriter === downloadWriter ? nil : bodyWriter }
    /// Whether the current response body is handed over in chunks (a final response of a
    /// transfer with `spec.bodyStream`; never a redirect's body).
    var bodyIsStreamed: Bool { get { state.pointee.bodyIsStreamed } _modify { yield &state.pointee.bodyIsStreamed } }
    /// Whether `body` still holds every streamed byte (for the cache; see `spec.streamCopyLimit`).
    var streamCopyKept: Bool { get { state.pointee.streamCopyKept } _modify { yield &state.pointee.streamCopyKept } }
    /// Whether the current response's body waits for `spec.responseGate` (a final response only).
    var heldByGate: Bool { get { state.pointee.heldByGate } _modify { yield &state.pointee.heldByGate } }
    /// Bytes of the file the current response continues (a resumed download's 206), counted in progress.
    var resumedAt: Int64 { get { state.pointee.resumedAt } _modify { yield &state.pointee.resumedAt } }
    /// Set when a resumed download got another range than asked; the body is refused.
    var rangeRejected: Bool { get { state.pointee.rangeRejected } _modify { yield &state.pointee.rangeRejected } }
    /// Whether the current response is a redirect (a 3xx with a Location), whose body in memory
    /// is bounded; and whether it went past that bound.
    var isRedirect: Bool { get { state.pointee.isRedirect } _modify { yield &state.pointee.isRedirect } }
    var redirectBodyDropped: Bool {
        get { state.pointee.redirectBodyDropped } _modify { yield &state.pointee.redirectBodyDropped }
    }
    /// The last head, a 401, while the request has a credential: curl may answer the challenge
    /// (Basic, Digest, a stale Digest nonce), and then the head is not the response. It becomes
    /// the response once its body arrives or the exchange ends well with it; a later head means
    /// curl answered it.
    var heldChallenge: ResponseHead? { get { state.pointee.heldChallenge } _modify { yield &state.pointee.heldChallenge } }
    /// Whether `heldChallenge` is set (without copying it).
    var holdsChallenge: Bool { state.pointee.$heldChallenge }
    /// Receive buffer for bodies written to disk: fewer, larger writes (curl's default is 16 KiB).
    static let downloadBufferSize = 512 << 10
    /// Send buffer for bodies read from a file or a stream: fewer, larger reads and socket
    /// writes (curl's default is 64 KiB).
    static let uploadBufferSize = 512 << 10
    /// Whether the task paused the transfer (so a stream's new data must not resume it).
    var isSuspended: Bool { get { state.pointee.isSuspended } _modify { yield &state.pointee.isSuspended } }
    /// Set when the idle timeout has a fraction of a second, which the engine keeps itself.
    var idleWatch: IdleWatch? { get { state.pointee.idleWatch } _modify { yield &state.pointee.idleWatch } }
    /// The counts last reported, and those held back since (see `ProgressThrottle`).
    var lastProgress: TransferProgress { get { state.pointee.lastProgress } _modify { yield &state.pointee.lastProgress } }
    var heldProgress: TransferProgress? { get { state.pointee.heldProgress } _modify { yield &state.pointee.heldProgress } }
    /// Whether the throttle lists the transfer (from the first counts it held until a pass of
    /// the throttle takes it off, even if the counts went out before).
    var isInProgressThrottle: Bool {
        get { state.pointee.isInProgressThrottle } _modify { yield &state.pointee.isInProgressThrottle }
    }
    /// When counts were last reported (uptime nanoseconds; 0 before the first).
    var progressReportedAt: UInt64 {
        get { state.pointee.progressReportedAt } _modify { yield &state.pointee.progressReportedAt }
    }
    /// The engine's pacing of reports, set when the transfer reports progress.
    var progressThrottle: ProgressThrottle? {
        get { state.pointee.progressThrottle } _modify { yield &state.pointee.progressThrottle }
    }
    /// Set when the transfer could not be set up (its upload file cannot be read).
    var setupFailure: CurlFailure? { get { state.pointee.setupFailure } _modify { yield &state.pointee.setupFailure } }
    /// Set when reading the upload body failed mid-transfer; reported instead of curl's abort.
    var uploadError: URLError? { get { state.pointee.uploadError } _modify { yield &state.pointee.uploadError } }
    /// Set when the engine's wait set refused the transfer's socket; reported instead of curl's result.
    var watchFailure: URLError? { get { state.pointee.watchFailure } _modify { yield &state.pointee.watchFailure } }
    /// Why a segmented body could not be read (a form's file gone or changed).
    var uploadAFError: AFError? { get { state.pointee.uploadAFError } _modify { yield &state.pointee.uploadAFError } }
    /// Set for a content-coded body under a decompression limit; `decompressionError` once it refused.
    var decompression: DecompressionMeter? { get { state.pointee.decompression } _modify { yield &state.pointee.decompression } }
    var decompressionError: URLError? { get { state.pointee.decompressionError } _modify { yield &state.pointee.decompressionError } }
    /// Set when the trust evaluator rejected the server; reported instead of curl's TLS error.
    var trustError: AFError? { get { state.pointee.trustError } _modify { yield &state.pointee.trustError } }
    var trustPending: ServerTrustEvaluationPending? { get { state.pointee.trustPending } _modify { yield &state.pointee.trustPending } }
    var pathDropsAtStart: UInt { get { state.pointee.pathDropsAtStart } _modify { yield &state.pointee.pathDropsAtStart } }
    /// The engine's count of network changes heard when the transfer started (set on the engine
    /// thread before it starts; read by its task once it completed).
    var pathGeneration: UInt64 { get { state.pointee.pathGeneration } set { state.pointee.pathGeneration = newValue } }
    /// Where `socketSlot` lives: in the state's memory, which stays put until `deinit`.
    var socketSlot: UnsafeMutablePointer<afc_socket_slot> {
        (UnsafeMutableRawPointer(state) + MemoryLayout<EngineState>.offset(of: \EngineState.socketSlot)!)
            .assumingMemoryBound(to: afc_socket_slot.self)
    }

    init(spec: consuming TransferSpec, delegate: any TransferDelegate, reportsEvents: Bool = false, reportsProgress: Bool = false) {
        standing = spec.standing
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
    func dropAnswerFile() {
        guard let answerWriter else { return }
        bodyWriter = nil
        DownloadRequest.removeTemporaryFile(answerWriter.url)
    }
}
