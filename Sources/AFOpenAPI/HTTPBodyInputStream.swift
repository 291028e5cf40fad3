import AFCore
import Foundation
import OpenAPIRuntime

/// A request body read as it is sent: AF's upload reads this stream on a queue of its own (never
/// the engine's thread), and each read waits for the body's next chunk. The body is read once: a
/// second opening (a retry or a 307/308 redirect) fails with a clear error instead of sending a
/// different body.
final class HTTPBodyInputStream: InputStream, InterruptibleInputStream {
    private let pipe: BodyPipe

    init(_ body: HTTPBody) {
        pipe = BodyPipe(body)
        super.init(data: Data())
    }

    override func open() { pipe.open() }
    override func close() { pipe.close() }
    /// A request that ends while a read waits for the body's next chunk: the read returns, and
    /// the task taking the body's chunks is cancelled.
    func interruptReads() { pipe.close() }
    override var streamStatus: Stream.Status { pipe.status }
    override var streamError: (any Error)? { pipe.failure }
    override var hasBytesAvailable: Bool { pipe.status == .open }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        pipe.read(into: buffer, count: length)
    }

    override func getBuffer(_ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
                            length len: UnsafeMutablePointer<Int>) -> Bool {
        false
    }
}

/// Hands an `HTTPBody`'s chunks, taken by a task, to a reader that blocks until each arrives;
/// the task takes the next chunk once the reader has read the last one.
final class BodyPipe: @unchecked Sendable {
    private struct State {
        var status: Stream.Status = .notOpen
        var failure: (any Error)?
        var opened = false
        var ended = false
        /// The chunk being read, and the producer waiting for it to be read.
        var chunk: ArraySlice<UInt8> = []
        var producer: CheckedContinuation<Bool, Never>?
        var task: Task<Void, Never>?
    }

    private let body: HTTPBody
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var state = State()

    init(_ body: HTTPBody) {
        self.body = body
    }

    var status: Stream.Status { condition.withLock { state.status } }
    var failure: (any Error)? { condition.withLock { state.failure } }

    func open() {
        condition.withLock {
            guard !state.opened else {
                state.status = .error
                state.failure = AFError.sessionTaskFailed(error: URLError(.requestBodyStreamExhausted))
                return
            }
            state.opened = true
            state.status = .open
            state.task = Task { await self.produce() }
        }
    }

    func close() {
        condition.withLock {
            if state.status != .error { state.status = .closed }
            state.producer?.resume(returning: false)
            state.producer = nil
            state.task?.cancel()
            condition.broadcast()
        }
    }

    /// Waits for a chunk, then copies what fits; 0 at the end, -1 on failure.
    func read(into buffer: UnsafeMutablePointer<UInt8>, count length: Int) -> Int {
        condition.lock()
        defer { condition.unlock() }
        while state.status == .open, state.chunk.isEmpty, !state.ended, state.failure == nil {
            condition.wait()
        }
        guard state.status == .open else { return state.status == .atEnd ? 0 : -1 }
        if state.failure != nil {
            state.status = .error
            return -1
        }
        guard !state.chunk.isEmpty else {
            state.status = .atEnd
            return 0
        }
        let count = min(length, state.chunk.count)
        state.chunk.withUnsafeBytes { bytes in
            UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress!, byteCount: count)
        }
        state.chunk.removeFirst(count)
        if state.chunk.isEmpty {
            state.producer?.resume(returning: true)
            state.producer = nil
        }
        return count
    }

    /// Hands the body's chunks over one at a time, each once the previous one was read.
    private func produce() async {
        do {
            for try await chunk in body where !chunk.isEmpty {
                let goOn = await withCheckedContinuation { continuation in
                    condition.withLock {
                        guard state.status == .open else { return continuation.resume(returning: false) }
                        state.chunk = chunk
                        state.producer = continuation
                        condition.broadcast()
                    }
                }
                if !goOn { return }
            }
            condition.withLock {
                state.ended = true
                condition.broadcast()
            }
        } catch {
            condition.withLock {
                state.failure = error
                condition.broadcast()
            }
        }
    }
}
