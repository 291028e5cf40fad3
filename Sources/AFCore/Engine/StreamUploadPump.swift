import Foundation

/// Feeds an `InputStream` to curl without ever blocking the engine thread: the stream is read on
/// the pump's own queue into a bounded buffer, and curl's read callback only takes from that
/// buffer, pausing the upload when it is empty until the pump has more.
final class StreamUploadPump: @unchecked Sendable {
    /// Bytes buffered ahead of curl at most.
    static let capacity = 256 << 10
    private static let chunkSize = 64 << 10

    private struct State {
        /// Buffered bytes are `storage[head...]`; taken bytes are dropped when the buffer empties
        /// or before it grows (a `Data` with `removeFirst` keeps growing its storage instead).
        var storage: [UInt8] = []
        var head = 0
        var buffered: Int { storage.count - head }
        var finished = false
        var failure: (any Error)?
        var reading = false
        var curlIsWaiting = false
        var closed = false
    }

    private let stream: InputStream
    private let queue = DispatchQueue(label: "org.alamofire.upload-stream")
    private let state = Protected(State())
    /// Called (on the pump's queue) when curl waits and data or the end arrived.
    private let wakeCurl: @Sendable () -> Void

    init(stream: InputStream, wakeCurl: @escaping @Sendable () -> Void) {
        self.stream = stream
        self.wakeCurl = wakeCurl
        queue.async { self.stream.open() }
        scheduleRead()
    }

    /// What curl's read callback gets.
    enum Take { case bytes(Int), pause, end, failure(any Error) }

    /// Copies up to `count` buffered bytes into `buffer` (engine thread).
    func take(into buffer: UnsafeMutableRawPointer, count: Int) -> Take {
        let result = state.withLock { state -> Take in
            if state.buffered > 0 {
                let length = min(count, state.buffered)
                state.storage.withUnsafeBytes { bytes in
                    buffer.copyMemory(from: bytes.baseAddress! + state.head, byteCount: length)
                }
                state.head += length
                if state.head == state.storage.count {
                    state.storage.removeAll(keepingCapacity: true)
                    state.head = 0
                }
                return .bytes(length)
            }
            if let failure = state.failure { return .failure(failure) }
            if state.finished { return .end }
            state.curlIsWaiting = true
            return .pause
        }
        scheduleRead()
        return result
    }

    /// Bytes of memory the buffer holds (for tests: it must stay near `capacity`).
    var storageCapacity: Int { state.withLock { $0.storage.capacity } }

    /// Stops reading and closes the stream (behind a read in progress, which an interruptible
    /// stream is first told to end).
    func close() {
        state.withLock { $0.closed = true }
        (stream as? any InterruptibleInputStream)?.interruptReads()
        queue.async { self.stream.close() }
    }

    private func scheduleRead() {
        let shouldRead = state.withLock { state -> Bool in
            guard !state.reading, !state.finished, !state.closed, state.failure == nil,
                  state.buffered < Self.capacity else { return false }
            state.reading = true
            return true
        }
        if shouldRead { queue.async { self.readChunk() } }
    }

    private func readChunk() {
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        let count = stream.read(&chunk, maxLength: chunk.count)
        let wake = state.withLock { state -> Bool in
            state.reading = false
            if count > 0 {
                if state.head > 0 {
                    state.storage.removeFirst(state.head)
                    state.head = 0
                }
                state.storage.append(contentsOf: chunk[0..<count])
            } else if count == 0 {
                state.finished = true
            } else {
                state.failure = stream.streamError ?? URLError(.cannotLoadFromNetwork)
            }
            defer { state.curlIsWaiting = false }
            return state.curlIsWaiting
        }
        if wake { wakeCurl() }
        scheduleRead()
    }
}
