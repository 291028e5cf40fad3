import AFCore
import Foundation

/// `af demo`: starts a local httpbin, makes a few requests against it, prints what came back.
func runDemo() async -> Int32 {
    let session = Session()
    // A port the system just gave out can be taken again before httpbin binds it: a server that
    // exits at once is started again on another.
    var started: DemoServer?
    for _ in 0..<3 where started == nil {
        guard let server = DemoServer() else { return 1 }
        if await server.becomesReady(session: session) { started = server } else { server.stop() }
    }
    guard let server = started else {
        print("httpbin did not start (run scripts/setup.sh)")
        return 1
    }
    defer { server.stop() }
    let base = server.base
    print("== GET \(base)/get with parameters")
    printResponse(await session.request(base + "/get", parameters: ["demo": "af"]).serializingData().response)
    print("== POST JSON to \(base)/post")
    printResponse(await session.request(base + "/post", method: .post, parameters: ["hello": "world"],
                                        encoder: JSONParameterEncoder.default).serializingData().response)
    print("== GET \(base)/status/418 with validate()")
    let teapot = await session.request(base + "/status/418").validate().serializingData().response
    print("error: \(teapot.error?.localizedDescription ?? "none")")
    print("== GET \(base)/redirect/2")
    let redirected = await session.request(base + "/redirect/2").serializingData().response
    print("final URL: \(redirected.response?.url?.absoluteString ?? "-"), redirects: \(redirected.metrics?.redirectCount ?? 0)")
    return 0
}


func printResponse(_ response: AFDataResponse<Data>) {
    if let http = response.response {
        let proto = response.metrics?.transactionMetrics.last?.networkProtocolName ?? "?"
        print("\(proto) \(http.statusCode)")
        for header in http.headers.sorted() { print("\(header.name): \(header.value)") }
        print("")
    }
    switch response.result {
    case let .success(data): print(String(decoding: data, as: UTF8.self))
    case let .failure(error): print("error: \(error.localizedDescription)")
    }
}


/// httpbin in one process of its own (werkzeug's threaded server), so that stopping it leaves
/// nothing behind; gunicorn's worker outlived a killed master by up to 30 s, holding the port.
final class DemoServer {
    private let process = Process()
    let base: String

    /// Starts httpbin on a port the system hands out; nil (and the reason printed) if it cannot run.
    init?() {
        guard let port = Self.freePort() else {
            print("cannot find a free port for httpbin")
            return nil
        }
        base = "http://127.0.0.1:\(port)"
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import sys
            from werkzeug.serving import run_simple
            from httpbin import app
            run_simple("127.0.0.1", int(sys.argv[1]), app, threaded=True)
            """, String(port)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            print("cannot start httpbin (run scripts/setup.sh): \(error)")
            return nil
        }
    }

    /// Whether httpbin answers within a minute (a loaded machine takes seconds to import it);
    /// false at once if its process ended.
    func becomesReady(session: Session) async -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline {
            if await session.request(base + "/get").serializingData().response.error == nil { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// Ends httpbin. Children of this process inherit blocked SIGTERM/SIGINT: SIGKILL, then reap
    /// it, so its port is closed when this returns.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// A loopback port no one listens on now.
    private static func freePort() -> UInt16? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        return bound ? UInt16(bigEndian: address.sin_port) : nil
    }
}
