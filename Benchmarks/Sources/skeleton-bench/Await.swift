// The "+await" shapes: each request awaited in a Swift task, as AF's async form is.

import BenchSupport
import Foundation
import SkeletonShim
import Synchronization

/// Where the task awaiting a slot's transfer waits; one per slot, made once.
final class Waiter: @unchecked Sendable {
    /// Set by the task before the transfer starts, taken by the thread that learns of its end.
    private var continuation: UnsafeContinuation<Int, Never>?
    /// Set when the task awaiting the current request is cancelled: an awaited Alamofire request
    /// cancels itself then (`automaticallyCancelling` is true by default), so every await installs
    /// a handler. The request's end then reads as a failure.
    private let cancelled = Atomic<Bool>(false)

    static func of(_ slot: Slot) -> Waiter {
        Unmanaged<Waiter>.fromOpaque(slot.transfer.pointee.waiter!).takeUnretainedValue()
    }

    /// Starts a request with `start` and waits for its status.
    func await(starting start: () -> Void) async -> Int {
        // Cleared before the handler is installed: it runs at once if the task is cancelled.
        cancelled.store(false, ordering: .relaxed)
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                self.continuation = continuation
                start()
            }
        } onCancel: {
            cancelled.store(true, ordering: .relaxed)
        }
    }

    func resume(returning status: Int) {
        let continuation = self.continuation
        self.continuation = nil
        continuation?.resume(returning: cancelled.load(ordering: .relaxed) ? 0 : status)
    }
}

/// One task per slot, each awaiting one request after another until `count` were started (each
/// started with `start`, its status then made the handler's with `receive`); each keeps its own
/// counts and adds them to `tally` once, at its end.
func startAwaitingTasks(count: Int, start: @escaping @Sendable (Slot) -> Void,
                        receive: @escaping @Sendable (Slot, Int) -> Int) {
    let counter = StartCounter(limit: count)
    for slot in slots {
        Task {
            let waiter = Waiter.of(slot)
            var finished = 0, failures = 0, bytes = 0
            while counter.take() {
                let status = receive(slot, await waiter.await { start(slot) })
                finished += 1
                if status == 200 { bytes += slot.transfer.pointee.bodyBytes } else { failures += 1 }
                slot.transfer.pointee.bodyBytes = 0
            }
            handlerQueue.sync {
                tally.started += finished
                tally.finished += finished
                tally.failures += failures
                tally.bytes += bytes
                // The last task to report, all counts in: decided here, where they are added.
                if tally.finished == count { done.signal() }
            }
        }
    }
}
