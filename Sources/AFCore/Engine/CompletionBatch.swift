import Dispatch

/// The completions of transfers that ended in one pass of the engine, queued together when the
/// pass is done: one trip for each run of completions bound for the same queue, instead of one
/// per transfer (with 64 transfers in flight a pass ends about eight, all for one `rootQueue`).
/// Each queue gets its completions in the order the transfers ended.
struct CompletionBatch {
    /// A struct, not a tuple: a closure inside a tuple in an array goes in and out through a thunk
    /// made for it, an allocation each way (see `StoredClosure`).
    private struct Entry: Sendable {
        let queue: DispatchQueue
        let work: @Sendable () -> Void
    }

    private var pending: [Entry] = []

    var isEmpty: Bool { pending.isEmpty }

    /// Adds `work`, to run on `queue` once the batch is sent.
    mutating func add(on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        pending.append(Entry(queue: queue, work: work))
    }

    /// Queues what was added, then empties the batch (keeping its storage for the next pass);
    /// returns the number of trips queued.
    @discardableResult
    mutating func send() -> Int {
        var trips = 0
        var start = pending.startIndex
        while start < pending.endIndex {
            let queue = pending[start].queue
            var end = start + 1
            while end < pending.endIndex, pending[end].queue === queue { end += 1 }
            if end - start == 1 {
                queue.async(execute: pending[start].work)
            } else {
                let run = Array(pending[start..<end])
                queue.async { for entry in run { entry.work() } }
            }
            trips += 1
            start = end
        }
        pending.removeAll(keepingCapacity: true)
        return trips
    }
}
