import AFCore

// Sources/AFCore/AFCore.docc/Recipes.md

// Requests and hooks
func recipesRequestsExample(login: [String: String]) async throws {
    let value = try await AF.request("https://httpbin.org/get", parameters: ["q": "swift"])
        .validate()
        .serializingDecodable(MyType.self)
        .value

    AF.request("https://httpbin.org/post", method: .post, parameters: login, encoder: JSONParameterEncoder.default)
        .responseDecodable(of: MyType.self, queue: .global()) { response in print(response.result) }
    _ = value
}

func recipesHooksExample(tokenAdapter: any RequestAdapter) {
    let session = Session(
        interceptor: Interceptor(adapters: [tokenAdapter],
                                 retriers: [RetryPolicy(retryAfter: .default)]),  // honours Retry-After on 429/503
        redirectHandler: Redirector.follow,
        eventMonitors: [MyLogger()])  // after the default AlamofireNotifications, as in Alamofire

    session.request("https://api.example/items").validate().responseDecodable(of: [Item].self) { print($0.result) }
}

// Unix domain sockets
func recipesUnixSocketExample() {
    AF.request("http+unix://%2Fvar%2Frun%2Fdocker.sock/v1.41/info")   // the socket path, percent-encoded, as host
        .responseData { print($0.result) }

    let configuration = URLSessionConfiguration.af.default
    configuration.af.unixSocketPath = "/run/my-service.sock"           // every http(s):// request of the Session
    let local = Session(configuration: configuration)
    _ = local
}

// HTTP versions
func recipesHTTPVersionsExample() {
    let sidecar = Session(httpVersionPolicy: .http2PriorKnowledge)
    sidecar.request("http://127.0.0.1:15001/items").responseData { print($0.metrics?.transactionMetrics.last?.networkProtocolName ?? "-") }  // "h2"
}

// Uploads
func recipesUploadExample(fileURL: URL) {
    AF.upload(fileURL, to: "https://api.example/blobs", method: .put)
        .uploadProgress { print($0.fractionCompleted) }
        .validate()
        .response { print($0.result) }
}

// Downloads
func recipesDownloadExample(isoURL: URL, saved: Data) async throws {
    let download = AF.download("https://example.com/big.iso",
                               to: { _, _ in (isoURL, [.createIntermediateDirectories, .removePreviousFile]) })
    download.downloadProgress { print($0.fractionCompleted) }
    // later: download.cancel(byProducingResumeData: { data in saved = data })
    let fileURL = try await AF.download(resumingWith: saved, to: { _, _ in (isoURL, []) })
        .validate().serializingDownloadedFileURL().value
    _ = fileURL
}

// Streams
func recipesStreamExample() async {
    for await event in AF.streamRequest("https://api.example/events").streamTask().streamingStrings() {
        if let text = event.value { print(text) }
    }
}

// Names the recipes take as given (declared last: only comments may come between the import and a
// recipe's first line).
private struct MyType: Decodable {}
private struct Item: Decodable {}
private struct MyLogger: EventMonitor {}
