import Synchronization

/// A completion handed to user code (an adapter, a retrier, a redirect or cache handler) of
/// which only the first call counts: a second call is ignored, where it would start a second
/// attempt (a POST sent twice) or deliver a response twice.
final class CalledOnce<Value>: @unchecked Sendable {
    private let called = Atomic<Bool>(false)
    private let body: @Sendable (Value) -> Void

    init(_ body: @escaping @Sendable (Value) -> Void) {
        self.body = body
    }

    func callAsFunction(_ value: Value) {
        guard !called.exchange(true, ordering: .acquiringAndReleasing) else { return }
        body(value)
    }
}
