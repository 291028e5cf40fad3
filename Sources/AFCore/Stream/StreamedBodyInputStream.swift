import Foundation

/// The chunks of a streamed body waiting to be read, shared between the request (which adds
/// them) and the `InputStream` (which reads them). Each chunk counts as consumed, letting a
/// paused transfer go on, once read to its end.
final class ChunkQueue: @unchecked Sendable {
    private struct Chunk {
        var data: Data
        var consumed: @Sendable () -> Void
    }

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var chunks: [Chunk] = []
    private var offset = 0
    private var ended = false
    private var closed = false

    /// Adds a chunk; `consumed` runs once it was read (or the reader closed the stream).
    func append(_ data: Data, consumed: @escaping @Sendable () -> Void) {
        condition.lock()
        guard !closed else {
            condition.unlock()
            return consumed()
        }
        chunks.append(Chunk(data: data, consumed: consumed))
        condition.broadcast()
        condition.unlock()
    }

    /// No more chunks will come.
    func end() {
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
    }

    /// The reader is gone: drop what waits.
    func close() {
        condition.lock()
        closed = true
        let dropped = chunks
        chunks.removeAll()
        condition.broadcast()
        condition.unlock()
        dropped.forEach { $0.consumed() }
    }

    /// Whether a read would not report the end.
    var mayHaveBytes: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !closed && (!chunks.isEmpty || !ended)
    }

    /// Copies up to `length` bytes; blocks until bytes arrive. 0 at the end.
    func read(into buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        condition.lock()
        while chunks.isEmpty, !ended, !closed { condition.wait() }
        guard let first = chunks.first else {
            condition.unlock()
            return 0
        }
        let count = min(length, first.data.count - offset)
        first.data.withUnsafeBytes { bytes in
            let start = bytes.baseAddress!.advanced(by: offset).assumingMemoryBound(to: UInt8.self)
            buffer.update(from: start, count: count)
        }
        offset += count
        var finished: Chunk?
        if offset == first.data.count {
            finished = chunks.removeFirst()
            offset = 0
        }
        condition.unlock()
        finished?.consumed()
        return count
    }
}

/// The `InputStream` `DataStreamRequest.asInputStream()` returns, reading a `ChunkQueue`.
final class StreamedBodyInputStream: InputStream {
    let chunks = ChunkQueue()
    private let statusLock = NSLock()
    private var status: Stream.Status = .notOpen

    init() {
        super.init(data: Data())
    }

    override func open() {
        statusLock.withLock { if status == .notOpen { status = .open } }
    }

    override func close() {
        statusLock.withLock { status = .closed }
        chunks.close()
    }

    override var streamStatus: Stream.Status { statusLock.withLock { status } }

    override var streamError: (any Error)? { nil }

    override var hasBytesAvailable: Bool {
        streamStatus == .open && chunks.mayHaveBytes
    }

    /// Blocks until bytes arrive; 0 once the body ended; -1 when not open.
    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        switch streamStatus {
        case .open: break
        case .atEnd: return 0
        default: return -1
        }
        let count = chunks.read(into: buffer, maxLength: length)
        if count == 0 { statusLock.withLock { if status == .open { status = .atEnd } } }
        return count
    }

    override func getBuffer(_ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
                            length: UnsafeMutablePointer<Int>) -> Bool { false }
}
