import AFCore
import AFOpenAPI
import HTTPTypes
import OpenAPIRuntime

// Sources/AFOpenAPI/AFOpenAPI.docc/AFOpenAPI.md
func afOpenAPIExample(serverURL: URL) async throws {
    // The Session's retries, trust, cache and monitors apply to every operation.
    let session = Session(interceptor: RetryPolicy())
    let transport = AFTransport(session: session)

    // A generated client takes it as is: `Client(serverURL: serverURL, transport: transport)`.
    // Each of its operations comes down to one call of the transport, such as this one:
    let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/greet?name=Linux")
    let (response, body) = try await transport.send(request, body: nil, baseURL: serverURL, operationID: "getGreeting")
    if response.status == .ok, let body {
        print(try await String(collecting: body, upTo: 1 << 20))
    }
}
