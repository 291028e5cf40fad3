import Dispatch

/// A response handler's call, made once all of a request's serializers are done: delivered on
/// `queue` (see `DispatchQueue.deliver(recording:_:)`), or made at once where they finished when
/// there is none. Kept as the call and its queue, so a serializer's delivery needs no closure
/// around the handler's.
struct ResponseDelivery: Sendable {
    let queue: DispatchQueue?
    let call: @Sendable () -> Void

    /// Makes the call, counting a trip when it is queued.
    func make(recording handOffs: HandOffs) {
        queue.asyncOrNow(recording: handOffs, call)
    }
}
