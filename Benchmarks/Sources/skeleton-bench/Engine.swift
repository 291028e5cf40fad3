import Foundation
import SkeletonShim

/// One reusable transfer, handed between threads; only one thread uses it at a time.
struct Slot: @unchecked Sendable {
    let transfer: UnsafeMutablePointer<skeleton_transfer>
}

/// Runs the multi handle on its own thread; other threads hand it transfers to start.
final class Engine: @unchecked Sendable {
    let multi: UnsafeMutableRawPointer?
    private let lock = NSLock()
    private var pending: [Slot] = []
    private let onDone: @Sendable (Slot, Int) -> Void

    init(inflight: Int, onDone: @escaping @Sendable (Slot, Int) -> Void) {
        multi = skeleton_multi(inflight)
        self.onDone = onDone
        let thread = Thread { [self] in run() }
        thread.start()
    }

    func start(_ slot: Slot) {
        lock.lock()
        let wasEmpty = pending.isEmpty
        pending.append(slot)
        lock.unlock()
        if wasEmpty { curl_multi_wakeup(multi) }
    }

    private func run() {
        var running: Int32 = 0
        while true {
            lock.lock()
            let starting = pending
            pending.removeAll(keepingCapacity: true)
            lock.unlock()
            for slot in starting { curl_multi_add_handle(multi, slot.transfer.pointee.easy) }
            curl_multi_perform(multi, &running)
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                var easy: UnsafeMutableRawPointer?
                var result = CURLE_OK
                guard skeleton_done(message, &easy, &result) != 0, let easy,
                      let transfer = skeleton_transfer_of(easy) else { continue }
                let status = result == CURLE_OK ? skeleton_status(easy) : 0
                curl_multi_remove_handle(multi, easy)
                onDone(Slot(transfer: transfer), status)
            }
            curl_multi_poll(multi, nil, 0, 1000, nil)
        }
    }
}
