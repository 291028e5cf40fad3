import Dispatch

/// The completions of transfers that ended in one pass of the engine, queued together when the
/// pass is done: one trip for each run of completions bound for the same queue, instead of one
/// per transfer (with 64 transfers in flight a pass ends about eight, all for one `rootQueue`).
/// Each queue gets its completions in the order the transfers ended.
struct CompletionBatch {
    private var pending: [(queue: DispatchQueue, work: @Sendable () -> Void)] = []

    var isEmpty: Bool { pending.isEmpty }

    /// Adds `work`, to run on `queue` once the batch is sent.
    mutating func add(on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        pending.append((queue, work))
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
                var run: [@Sendable () -> Void] = []
                run.reserveCapacity(end - start)
                for index in start..<end { run.append(pending[index].work) }
                queue.async { [run] in for work in run { work() } }
            }
            trips += 1
            start = end
        }
        pending.removeAll(keepingCapacity: true)
        return trips
    }
}
