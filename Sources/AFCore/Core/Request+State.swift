extension Request {
    /// A request's life: `initialized` → `resumed` ⇄ `suspended` → `cancelled` or `finished`.
    public enum State: Sendable {
        /// Created; nothing sent yet.
        case initialized
        /// Running, or about to run.
        case resumed
        /// Paused by `suspend()`.
        case suspended
        /// Cancelled by `cancel()`; terminal.
        case cancelled
        /// Completed and its serializers ran; a new serializer moves it back to `resumed`.
        case finished

        /// Whether the machine may move from `self` to `state`.
        func canTransition(to state: State) -> Bool {
            switch (self, state) {
            case (.initialized, _):
                true
            case (_, .initialized), (.cancelled, _), (.finished, _):
                false
            case (.resumed, .cancelled), (.suspended, .cancelled), (.resumed, .suspended), (.suspended, .resumed):
                true
            case (.suspended, .suspended), (.resumed, .resumed):
                false
            case (_, .finished):
                true
            }
        }
    }
}
