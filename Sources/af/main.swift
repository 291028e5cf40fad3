import AFCore
import Foundation

/// `af demo`: starts a local httpbin, makes a few requests against it, prints what came back.
/// `af METHOD URL`: makes one request and prints status, headers and body.
let arguments = Array(CommandLine.arguments.dropFirst())

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

func runDemo() async -> Int32 {
    let socket = Process()
    let port = Int.random(in: 20_000..<40_000)
    socket.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    socket.arguments = ["python3", "-m", "gunicorn", "-b", "127.0.0.1:\(port)", "--log-level", "warning", "httpbin:app"]
    do { try socket.run() } catch {
        print("cannot start httpbin (run scripts/setup.sh): \(error)")
        return 1
    }
    defer {
        // Children of this process inherit blocked SIGTERM/SIGINT; SIGKILL the master and its
        // worker exits when it sees its parent gone.
        kill(socket.processIdentifier, SIGKILL)
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

func runRequest(method: String, url: String) async -> Int32 {
    let response = await AF.request(url, method: HTTPMethod(rawValue: method.uppercased())).serializingData().response
    printResponse(response)
    return response.error == nil ? 0 : 1
}

let status: Int32
let wantsDemo = arguments.isEmpty || arguments == ["demo"]
switch arguments.count {
case _ where wantsDemo:
    status = await runDemo()
case 1:
    status = await runRequest(method: "GET", url: arguments[0])
case 2:
    status = await runRequest(method: arguments[0], url: arguments[1])
default:
    print("usage: af [demo] | af [METHOD] URL")
    status = 2
}
exit(status)
