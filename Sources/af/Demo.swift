import AFCore
import Foundation

/// `af demo`: starts a local httpbin, makes a few requests against it, prints what came back.
func runDemo() async -> Int32 {
    // One process (werkzeug's threaded server), so that stopping it leaves nothing behind;
    // gunicorn's worker outlived a killed master by up to 30 s, holding the port.
    let server = Process()
    let port = Int.random(in: 20_000..<40_000)
    server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    server.arguments = ["python3", "-c", """
        import sys
        from werkzeug.serving import run_simple
        from httpbin import app
        run_simple("127.0.0.1", int(sys.argv[1]), app, threaded=True)
        """, String(port)]
    server.standardOutput = FileHandle.nullDevice
    server.standardError = FileHandle.nullDevice
    do { try server.run() } catch {
        print("cannot start httpbin (run scripts/setup.sh): \(error)")
        return 1
    }
    defer {
        // Children of this process inherit blocked SIGTERM/SIGINT: SIGKILL, then reap it, so its
        // port is closed before the demo returns.
        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
    }
    let base = "http://127.0.0.1:\(port)"
    let session = Session()
    var ready = false
    for _ in 0..<100 where !ready {
        ready = await session.request(base + "/get").serializingData().response.error == nil
        if !ready { try? await Task.sleep(for: .milliseconds(100)) }
    }
    guard ready else {
        print("httpbin did not start on \(base)")
        return 1
    }
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

