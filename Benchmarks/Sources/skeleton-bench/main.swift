// The thread hand-offs of a request, with none of AF's work: a ceiling for what AF's shape can
// reach, measured in the same way and on the same workload as the clients.
//
// usage: skeleton-bench URL COUNT INFLIGHT CAFILE SHAPE   (CAFILE may be "")
//   SHAPE af-hops:  the caller's queue -> a serial root queue -> the engine thread (woken by
//                   curl_multi_wakeup) -> the root queue -> the caller's queue: AF's path.
//   SHAPE min-hops: the caller's queue -> the engine thread -> the caller's queue: the fewest
//                   hand-offs that keep curl on its own thread and the handler on the caller's queue.
//   SHAPE shared:   curl under a mutex, driven by the caller (who sends its request itself) and by
//                   one thread waiting in epoll for the responses, which it hands to the caller's
//                   queue: one hand-off per request beyond raw libcurl's, the fewest possible while
//                   handlers run on the caller's queue.
//   A "+contract" suffix (af-hops, min-hops, shared) adds the per-request work Alamofire's API obliges any
//   implementation to do, each part done as cheaply as it can be (see Contract.swift): a floor
//   under the cost of any implementation of that API on the same trips; "+contract+response"
//   also builds the HTTPURLResponse the handler reads, as AF's status + metrics form does.
//   A "+fields" suffix also collects each response's header lines into a [String: String] on the
//   root (or caller's) queue; "+response" then builds FoundationNetworking's HTTPURLResponse from
//   them, as every AF response handler receives one.
//   "+await" (after "+contract") awaits each request in a Swift task, as AF's async form does:
//   one task per request in flight, each starting its next request once the last one's response
//   arrived, under a task cancellation handler as Alamofire's awaited requests are by default.
//   The thread that learns of the end resumes the task, which does the completion's work itself
//   (af-hops: the root queue does it, then resumes the task), so a request's end wakes one
//   thread, as the handler's queue does in the callback shapes.

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
      ["af-hops", "min-hops", "shared", "af-hops+contract", "min-hops+contract", "shared+contract"].contains(arguments[5].replacingOccurrences(of: "+response", with: "").replacingOccurrences(of: "+fields", with: "").replacingOccurrences(of: "+await", with: "")),
      !arguments[5].contains("+await") || arguments[5].contains("+contract") else {
    FileHandle.standardError.write(Data("usage: skeleton-bench URL COUNT INFLIGHT CAFILE af-hops|min-hops|shared[+contract[+await]|+fields|+response]\n".utf8))
    exit(2)
}
let shape = arguments[5]
let usesRootQueue = shape.hasPrefix("af-hops")
let sharesMulti = shape.hasPrefix("shared")
let buildsResponse = shape.hasSuffix("+response")
let collectsFields = buildsResponse || shape.hasSuffix("+fields")
let keepsContract = shape.contains("+contract")
let awaits = shape.contains("+await")
let cafile = arguments[4]
let inflight = min(count, requestedInflight)

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
    guard skeleton_transfer_init(transfer, url.absoluteString, cafile, collectsFields || keepsContract ? 1 : 0) == 0 else {
        fatalError("curl_easy_init failed")
    }
    if keepsContract {
        var lines = contractHeaderLines.map { strdup($0).map { UnsafePointer($0) } }
        guard skeleton_transfer_keep_contract(transfer, &lines, Int32(lines.count)) == 0 else { fatalError("curl_slist_append failed") }
    }
    if awaits { transfer.pointee.waiter = Unmanaged.passRetained(Waiter()).toOpaque() }
    return Slot(transfer: transfer)
}

nonisolated(unsafe) var engine: Engine!

nonisolated(unsafe) var shared: Shared!

@Sendable func handle(_ slot: Slot, status: Int) {
    let transfer = slot.transfer
    tally.finished += 1
    if status == 200 { tally.bytes += transfer.pointee.bodyBytes } else { tally.failures += 1 }
    transfer.pointee.bodyBytes = 0
    if tally.started < count {
        startNext(slot)
    } else if tally.finished == count {
        done.signal()
    }
}

/// On `handlerQueue`: the next request on `slot`'s transfer.
@Sendable func startNext(_ slot: Slot) {
    tally.started += 1
    start(slot)
}

/// What the handler makes of `response`: its status, or 0 for a failure. "+response": the
/// handler reads the HTTPURLResponse, built then from the lines.
@Sendable func handlerStatus(of response: ContractResponse, status: Int, _ slot: Slot) -> Int {
    if case .failure = response.result { return 0 }
    if buildsResponse, HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1",
                                       headerFields: headerFields(slot))?.statusCode != status {
        return 0
    }
    return status
}

@Sendable func start(_ slot: Slot) {
    if keepsContract { makeContractRequest(for: slot, url: url) }
    /// The resume: the contract's notifications, then the transfer to curl.
    @Sendable func send() {
        if keepsContract { resumeContractRequest(for: slot) }
        if sharesMulti { skeleton_shared_start(shared.pointer, slot.transfer) } else { engine.start(slot) }
    }
    if usesRootQueue { rootQueue.async(execute: send) } else { send() }
}

@Sendable func finished(_ slot: Slot, status: Int) {
    if awaits {
        let waiter = Waiter.of(slot)
        if usesRootQueue {
            rootQueue.async { waiter.resume(returning: handlerStatus(of: completeContractRequest(for: slot, status: status), status: status, slot)) }
        } else {
            waiter.resume(returning: status)
        }
        return
    }
    let deliver: @Sendable () -> Void = {
        if keepsContract {
            // Off the engine thread: on the root queue (af-hops) or the handler's queue (the others).
            let receive: @Sendable (ContractResponse) -> Void = { response in
                handle(slot, status: handlerStatus(of: response, status: status, slot))
            }
            if usesRootQueue {
                let response = completeContractRequest(for: slot, status: status)
                handlerQueue.async { receive(response) }
            } else {
                handlerQueue.async { receive(completeContractRequest(for: slot, status: status)) }
            }
            return
        }
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

measureRequests(on: handlerQueue, start: {
    if awaits {
        startAwaitingTasks(count: count, start: start) { slot, status in
            // af-hops: the root queue did the completion's work before resuming the task.
            usesRootQueue ? status : handlerStatus(of: completeContractRequest(for: slot, status: status), status: status, slot)
        }
    } else {
        for slot in slots { startNext(slot) }
    }
}, until: done) { seconds, usage in
    RunResult(requests: count, failures: tally.failures, seconds: seconds, cpuSeconds: usage.cpuSeconds,
              maxRSSKiB: usage.maxRSSKiB, connections: -1, bytes: tally.bytes)
}
