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
