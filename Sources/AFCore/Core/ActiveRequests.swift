/// The requests a session has not finished. Each request knows its place in the list, so adding
/// and removing one hashes nothing (a `Set` hashed the request's UUID on both). Only used under
/// the session's lock for it (`Session.activeRequests`).
struct ActiveRequests {
    private var requests: [Request] = []

    var isEmpty: Bool { requests.isEmpty }

    var count: Int { requests.count }

    /// The requests as a set, as `Session.withAllRequests` hands them out.
    var all: Set<Request> { Set(requests) }

    /// Adds `request`; nothing if it is in already.
    mutating func insert(_ request: Request) {
        guard request.activeSlot < 0 else { return }
        request.activeSlot = requests.count
        requests.append(request)
    }

    /// Removes `request`, if it is in; the last request takes its place.
    mutating func remove(_ request: Request) {
        let slot = request.activeSlot
        guard slot >= 0, slot < requests.count, requests[slot] === request else { return }
        request.activeSlot = -1
        let last = requests.removeLast()
        if slot < requests.count {
            requests[slot] = last
            last.activeSlot = slot
        }
    }
}
