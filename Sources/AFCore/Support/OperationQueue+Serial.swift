import Foundation

extension OperationQueue {
    /// An operation queue with the given settings; `underlyingQueue` makes it run its operations
    /// on that dispatch queue. An AF addition: the delegate queue of a `URLSession` handed to
    /// `Session(session:delegate:rootQueue:)` is a serial queue over the root queue, made with
    /// `OperationQueue(maxConcurrentOperationCount: 1, underlyingQueue: rootQueue)`.
    public convenience init(qualityOfService: QualityOfService = .default,
                            maxConcurrentOperationCount: Int = OperationQueue.defaultMaxConcurrentOperationCount,
                            underlyingQueue: DispatchQueue? = nil,
                            name: String? = nil,
                            startSuspended: Bool = false) {
        self.init()
        self.qualityOfService = qualityOfService
        self.maxConcurrentOperationCount = maxConcurrentOperationCount
        self.underlyingQueue = underlyingQueue
        self.name = name
        isSuspended = startSuspended
    }
}
