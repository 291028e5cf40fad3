// The "+contract" shapes: the per-request work Alamofire's API obliges any implementation to do,
// each part done the cheapest way this skeleton knows, and nothing an implementation could make
// lazy or skip (no UUID, no metrics, no HTTPURLResponse: the raw header lines are kept, as a lazy
// response head keeps them). What is left is a floor under AF's own cost on the same trips:
//   - the caller builds a `URLRequest` (what `URLRequestConvertible` and adapters are made of)
//     and a request object with a lock for its state;
//   - the request sends Alamofire's three default headers (`HTTPHeaders.default`), which curl
//     formats into every request;
//   - the four request notifications Alamofire always posts (resume, task resume, task
//     completion, finish), each with the request in its `userInfo`;
//   - the cookie store asked whether it holds any cookie (Alamofire's default configuration
//     sends the shared store's cookies with every request; asking whether it holds any is the
//     cheapest public way to learn that none applies);
//   - the body kept in a `Data`, validation of the status code and the request's `Accept` read
//     (`validate()` matches the response's Content-Type against it when there is one; the
//     benchmark's requests send none), the serialization timed with two clock reads
//     (`DataResponse.serializationDuration`), and a response value handed to the handler's queue.
// Whatever is left out makes the floor faster, never slower.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SkeletonShim

/// Alamofire's default request headers as AF sends them from `af-bench-client` (same lengths).
let contractHeaderLines = [
    "Accept-Encoding: br;q=1.0, gzip;q=0.9, deflate;q=0.8",
    "Accept-Language: en-001;q=1.0",
    "User-Agent: af-bench-client (Debian GNU/Linux 12; Linux 6.18.44-fc-v669; x86_64) AF/0.1.0",
]

/// One request's state, shared by the threads that handle it.
final class ContractRequest: @unchecked Sendable {
    let urlRequest: URLRequest
    private let lock = NSLock()
    private var state = 0

    init(url: URL) {
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        urlRequest = request
    }

    /// Moves the request's state on, under its lock.
    func advance() {
        lock.lock()
        state += 1
        lock.unlock()
    }
}

/// What a response handler receives.
struct ContractResponse: Sendable {
    let request: URLRequest?
    let data: Data?
    let serializationDuration: TimeInterval
    let result: Result<Data, ContractError>
}

struct ContractError: Error {
    let status: Int
}

enum ContractNotification {
    static let names = ["didResume", "didResumeTask", "didCompleteTask", "didFinish"].map {
        Notification.Name("org.alamofire.notification.name.request.\($0)")
    }
    static let requestKey = "org.alamofire.notification.key.request"

    static func post(_ index: Int, of request: ContractRequest) {
        NotificationCenter.default.post(name: names[index], object: nil, userInfo: [requestKey: request])
    }
}

/// The caller's part of a request: its `URLRequest` and state, carried by the transfer.
func makeContractRequest(for slot: Slot, url: URL) {
    slot.transfer.pointee.owner = Unmanaged.passRetained(ContractRequest(url: url)).toOpaque()
}

/// The resume, on the root queue.
func resumeContractRequest(for slot: Slot) {
    let request = Unmanaged<ContractRequest>.fromOpaque(slot.transfer.pointee.owner!).takeUnretainedValue()
    request.advance()
    ContractNotification.post(0, of: request)
    ContractNotification.post(1, of: request)
    // The store holds none here, so no cookie is looked up for the URL.
    precondition(HTTPCookieStorage.shared.cookies?.isEmpty != false, "the benchmark's cookie store holds cookies")
}

/// The completion, on the root queue: the response the handler receives.
func completeContractRequest(for slot: Slot, status: Int) -> ContractResponse {
    let request = Unmanaged<ContractRequest>.fromOpaque(slot.transfer.pointee.owner!).takeRetainedValue()
    slot.transfer.pointee.owner = nil
    ContractNotification.post(2, of: request)
    let transfer = slot.transfer
    let data = withUnsafeBytes(of: &transfer.pointee.body) { Data($0.prefix(transfer.pointee.bodyLength)) }
    transfer.pointee.bodyLength = 0
    let start = ProcessInfo.processInfo.systemUptime
    // The benchmark's requests send no Accept, so no Content-Type is matched against one.
    precondition(request.urlRequest.value(forHTTPHeaderField: "Accept") == nil, "the benchmark's requests send no Accept")
    let result: Result<Data, ContractError> = (200..<300).contains(status) ? .success(data) : .failure(ContractError(status: status))
    let duration = ProcessInfo.processInfo.systemUptime - start
    request.advance()
    ContractNotification.post(3, of: request)
    return ContractResponse(request: request.urlRequest, data: data, serializationDuration: duration, result: result)
}
