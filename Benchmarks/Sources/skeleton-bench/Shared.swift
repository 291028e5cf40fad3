import SkeletonShim

/// The shared multi handle of the `shared` shape.
struct Shared: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// Where the `shared` shape's waiter thread reports finished transfers (set once, before it starts).
nonisolated(unsafe) var onSharedDone: (@Sendable (Slot, Int) -> Void)?

/// The C callback handed to `skeleton_shared_create`: forwards to `onSharedDone`.
let sharedDone: skeleton_done_callback = { _, transfer, status in
    if let transfer { onSharedDone?(Slot(transfer: transfer), status) }
}
