/// Holds a transfer's final response body back, once its head arrived, until the code deciding
/// on the response (`onHTTPResponse` with a disposition) lets it through: the first chunk is
/// refused with a pause, and offered again by curl when the transfer's flow resumes.
final class ResponseGate: Sendable {
    private let state = Protected(false)

    /// Whether the body may come in.
    var isOpen: Bool { state.value }

    /// Lets the body come in (the caller then resumes the transfer's flow).
    func open() { state.withLock { $0 = true } }
}
