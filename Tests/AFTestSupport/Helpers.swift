import AFCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A Session for one test, created after the servers are up (so it trusts the test CA).
package func makeSession(configuration: URLSessionConfiguration = URLSessionConfiguration.af.default,
                         rootQueue: DispatchQueue? = nil,
                         startRequestsImmediately: Bool = true,
                         requestSetup: Session.RequestSetup = .lazy,
                         interceptor: (any RequestInterceptor)? = nil,
                         serverTrustManager: ServerTrustManager? = nil,
                         redirectHandler: (any RedirectHandler)? = nil,
                         cachedResponseHandler: (any CachedResponseHandler)? = nil,
                         eventMonitors: [any EventMonitor] = [],
                         decompressionLimit: DecompressionLimit? = .default) -> Session {
    _ = TestServers.shared
    return Session(configuration: configuration,
                   rootQueue: rootQueue ?? DispatchQueue(label: "org.alamofire.session.rootQueue"),
                   startRequestsImmediately: startRequestsImmediately,
                   requestSetup: requestSetup, interceptor: interceptor, serverTrustManager: serverTrustManager,
                   redirectHandler: redirectHandler,
                   cachedResponseHandler: cachedResponseHandler, eventMonitors: eventMonitors,
                   decompressionLimit: decompressionLimit)
}

/// A key no other test uses, for the fault server's per-key counters.
package func uniqueKey() -> String { UUID().uuidString }

/// Shortcuts to the test servers' URLs.
package enum Server {
    package static func httpbin(_ path: String) -> String { TestServers.shared.httpbin + path }
    package static func http(_ path: String) -> String { TestServers.shared.http + path }
    package static func https(_ path: String) -> String { TestServers.shared.https + path }
    package static func faults(_ path: String) -> String { TestServers.shared.faults + path }
    package static func h2c(_ path: String) -> String { TestServers.shared.h2c + path }
    /// A server of the trust matrix (Tests/Fixtures/tls_matrix.py), by case name.
    package static func tls(_ matrixCase: String, _ path: String = "/") -> String {
        TestServers.shared.all["tls." + matrixCase]! + path
    }

    /// The requests the matrix server of `matrixCase` received: "uri|Authorization|length" lines.
    package static func tlsLog(_ matrixCase: String) -> String {
        let path = TestServers.shared.all["directory"]! + "/matrix-\(matrixCase).log"
        // A server that never got a request has no log yet; reading a missing file through
        // String(contentsOfFile:) leaks a buffer in corelibs Foundation (LSan).
        guard let data = FileManager.default.fileExists(atPath: path) ? FileHandle(forReadingAtPath: path)?.readDataToEndOfFile() : nil else {
            return ""
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// httpbin's echo of a request.
package struct HTTPBinResponse: Decodable, Sendable {
    package let args: [String: String]?
    package let headers: [String: String]
    package let url: String?
    package let data: String?
    package let form: [String: String]?
    package let json: [String: AnyDecodable]?
    package let method: String?
}

/// Any JSON value, compared through its description.
package struct AnyDecodable: Decodable, Sendable, Equatable {
    package let description: String

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(String.self) { description = value }
        else if let value = try? container.decode(Bool.self) { description = "\(value)" }
        else if let value = try? container.decode(Int.self) { description = "\(value)" }
        else if let value = try? container.decode(Double.self) { description = "\(value)" }
        else if let value = try? container.decode([AnyDecodable].self) { description = "\(value.map(\.description))" }
        else if let value = try? container.decode([String: AnyDecodable].self) {
            description = "\(value.mapValues(\.description).sorted { $0.key < $1.key })"
        } else { description = "null" }
    }
}

/// Waits for a callback-style response.
package func response<T: Sendable>(_ start: (@escaping @Sendable (T) -> Void) -> Void) async -> T {
    await withCheckedContinuation { continuation in
        start { continuation.resume(returning: $0) }
    }
}

/// A signal fired once from any thread and awaited once, in either order. A wait ends early
/// when its task is cancelled (a test past its time limit), so a signal that never comes fails
/// the test instead of hanging the run.
package final class OneShot: Sendable {
    private struct State { var fired = false; var cancelled = false; var waiter: CheckedContinuation<Void, Never>? }
    private let state = Protected(State())

    package init() {}

    package func fire() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.fired = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Whether the signal was fired (a wait that ended by cancellation leaves it false).
    package var hasFired: Bool { state.withLock { $0.fired } }

    package func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Bool in
                    if !state.fired, !state.cancelled { state.waiter = continuation }
                    return state.fired || state.cancelled
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.cancelled = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}

/// SHA-256 of `data` in hex, as the test servers report it (by sha256sum: the tests link no crypto).
package func sha256Hex(_ data: Data) throws -> String {
    String(try runProgram("/usr/bin/sha256sum", [], input: data).text.prefix(64))
}

/// `make` run on a Dispatch worker, outside any Swift task (where a request made while others
/// are active gets a queue of its own, not the session's `rootQueue`).
package func outsideAnyTask<Value: Sendable>(_ make: @escaping @Sendable () -> Value) async -> Value {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: make()) }
    }
}
