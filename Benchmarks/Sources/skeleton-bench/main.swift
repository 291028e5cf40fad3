// The thread hand-offs of a request, with none of AF's work: a ceiling for what AF's shape can
// reach, measured in the same way and on the same workload as the clients.
//
// usage: skeleton-bench URL COUNT INFLIGHT CAFILE SHAPE   (CAFILE may be "")
//   SHAPE af-hops:  the caller's queue -> a serial root queue -> the engine thread (woken by
//                   curl_multi_wakeup) -> the root queue -> the caller's queue: AF's path today.
//   SHAPE min-hops: the caller's queue -> the engine thread -> the caller's queue: the fewest
//                   hand-offs that keep curl on its own thread and the handler on the caller's queue.
//   SHAPE shared:   curl under a mutex, driven by the caller (who sends its request itself) and by
//                   one thread waiting in epoll for the responses, which it hands to the caller's
//                   queue: one hand-off per request beyond raw libcurl's, the fewest possible while
//                   handlers run on the caller's queue.
//   A "+fields" suffix also collects each response's header lines into a [String: String] on the
//   root (or caller's) queue; "+response" then builds FoundationNetworking's HTTPURLResponse from
//   them, as every AF response handler receives one.

import BenchSupport
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SkeletonShim

let arguments = CommandLine.arguments
guard arguments.count == 6, let url = URL(string: arguments[1]), let count = Int(arguments[2]),
      let requestedInflight = Int(arguments[3]), count > 0, requestedInflight > 0,
      ["af-hops", "min-hops", "shared"].contains(arguments[5].replacingOccurrences(of: "+response", with: "").replacingOccurrences(of: "+fields", with: "")) else {
    FileHandle.standardError.write(Data("usage: skeleton-bench URL COUNT INFLIGHT CAFILE af-hops|min-hops|shared[+fields|+response]\n".utf8))
    exit(2)
}
let shape = arguments[5]
let usesRootQueue = shape.hasPrefix("af-hops")
let sharesMulti = shape.hasPrefix("shared")
let buildsResponse = shape.hasSuffix("+response")
let collectsFields = buildsResponse || shape.hasSuffix("+fields")
let cafile = arguments[4]
let inflight = min(count, requestedInflight)

/// One reusable transfer, handed between threads; only one thread uses it at a time.
struct Slot: @unchecked Sendable {
    let transfer: UnsafeMutablePointer<skeleton_transfer>
}

/// Runs the multi handle on its own thread; other threads hand it transfers to start.
final class Engine: @unchecked Sendable {
    let multi: UnsafeMutableRawPointer?
    private let lock = NSLock()
    private var pending: [Slot] = []
    private let onDone: @Sendable (Slot, Int) -> Void

    init(inflight: Int, onDone: @escaping @Sendable (Slot, Int) -> Void) {
        multi = skeleton_multi(inflight)
        self.onDone = onDone
        let thread = Thread { [self] in run() }
        thread.start()
    }

    func start(_ slot: Slot) {
        lock.lock()
        let wasEmpty = pending.isEmpty
        pending.append(slot)
        lock.unlock()
        if wasEmpty { curl_multi_wakeup(multi) }
    }

    private func run() {
        var running: Int32 = 0
        while true {
            lock.lock()
            let starting = pending
            pending.removeAll(keepingCapacity: true)
            lock.unlock()
            for slot in starting { curl_multi_add_handle(multi, slot.transfer.pointee.easy) }
            curl_multi_perform(multi, &running)
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                var easy: UnsafeMutableRawPointer?
                var result = CURLE_OK
                guard skeleton_done(message, &easy, &result) != 0, let easy,
                      let transfer = skeleton_transfer_of(easy) else { continue }
                let status = result == CURLE_OK ? skeleton_status(easy) : 0
                curl_multi_remove_handle(multi, easy)
                onDone(Slot(transfer: transfer), status)
            }
            curl_multi_poll(multi, nil, 0, 1000, nil)
        }
    }
}

/// The response's header lines as a dictionary, read byte by byte.
@Sendable func headerFields(_ slot: Slot) -> [String: String] {
    let transfer = slot.transfer
    return withUnsafeBytes(of: &transfer.pointee.headers) { raw in
        let bytes = raw.prefix(transfer.pointee.headersLength)
        var fields: [String: String] = [:]
        var lineStart = bytes.startIndex
        var isStatusLine = true
        while let newline = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
            var lineEnd = newline
            if lineEnd > lineStart, bytes[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
            defer { lineStart = newline + 1 }
            if isStatusLine { isStatusLine = false; continue }
            guard let colon = bytes[lineStart..<lineEnd].firstIndex(of: UInt8(ascii: ":")) else { continue }
            var valueStart = colon + 1
            while valueStart < lineEnd, bytes[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
            fields[String(decoding: bytes[lineStart..<colon], as: UTF8.self)] =
                String(decoding: bytes[valueStart..<lineEnd], as: UTF8.self)
        }
        return fields
    }
}

/// Counters touched only on `handlerQueue`.
final class Tally: @unchecked Sendable {
    var started = 0
    var finished = 0
    var failures = 0
    var bytes = 0
}

let handlerQueue = DispatchQueue(label: "skeleton.handlers")
let rootQueue = DispatchQueue(label: "skeleton.root")
let tally = Tally()
let done = DispatchSemaphore(value: 0)
let slots = (0..<inflight).map { _ -> Slot in
    let transfer = UnsafeMutablePointer<skeleton_transfer>.allocate(capacity: 1)
    guard skeleton_transfer_init(transfer, url.absoluteString, cafile, collectsFields ? 1 : 0) == 0 else {
        fatalError("curl_easy_init failed")
    }
    return Slot(transfer: transfer)
}

nonisolated(unsafe) var engine: Engine!

/// The shared multi handle of the `shared` shape.
struct Shared: @unchecked Sendable {
    let pointer: OpaquePointer
}
nonisolated(unsafe) var shared: Shared!

@Sendable func handle(_ slot: Slot, status: Int) {
    let transfer = slot.transfer
    tally.finished += 1
    if status == 200 { tally.bytes += transfer.pointee.bodyBytes } else { tally.failures += 1 }
    transfer.pointee.bodyBytes = 0
    if tally.started < count {
        start(slot)
    } else if tally.finished == count {
        done.signal()
    }
}

@Sendable func start(_ slot: Slot) {
    tally.started += 1
    if sharesMulti {
        skeleton_shared_start(shared.pointer, slot.transfer)
    } else if usesRootQueue {
        rootQueue.async { engine.start(slot) }
    } else {
        engine.start(slot)
    }
}

@Sendable func finished(_ slot: Slot, status: Int) {
    let deliver: @Sendable () -> Void = {
        var code = status
        if collectsFields {
            let fields = headerFields(slot)
            if fields.isEmpty { code = 0 }
            if buildsResponse {
                code = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields)?.statusCode ?? 0
            }
        }
        let delivered = code
        handlerQueue.async { handle(slot, status: delivered) }
    }
    if usesRootQueue { rootQueue.async(execute: deliver) } else { deliver() }
}

if sharesMulti {
    onSharedDone = { slot, status in finished(slot, status: status) }
    guard let pointer = skeleton_shared_create(inflight, sharedDone, nil) else { fatalError("skeleton_shared_create failed") }
    shared = Shared(pointer: pointer)
    let waiter = shared!
    Thread { skeleton_shared_run(waiter.pointer) }.start()
} else {
    engine = Engine(inflight: inflight) { slot, status in finished(slot, status: status) }
}

let startTime = DispatchTime.now()
handlerQueue.sync {
    for slot in slots { start(slot) }
}
done.wait()
let seconds = Double(DispatchTime.now().uptimeNanoseconds - startTime.uptimeNanoseconds) / 1e9
let usage = ProcessUsage.current()
let result = handlerQueue.sync {
    RunResult(requests: count, failures: tally.failures, seconds: seconds, cpuSeconds: usage.cpuSeconds,
              maxRSSKiB: usage.maxRSSKiB, connections: -1, bytes: tally.bytes)
}
result.report()
