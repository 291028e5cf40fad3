import AFCore
import AFMultipart
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs the request the invocation describes and prints what came back; the exit status.
struct Transfer {
    let invocation: Invocation
    let output = Output()

    func run() async -> Int32 {
        do {
            let url = try RequestItem.url(invocation.url, adding: invocation.items)
            let session = try SessionFactory.session(for: invocation, host: url.host ?? "")
            defer { withExtendedLifetime(session) {} }
            if invocation.download { return await Download(invocation: invocation, output: output).run(url, on: session) }
            var request = try makeRequest(url, on: session)
            // RetryPolicy retries errors: with --retry, a 5xx answer is one.
            if invocation.retries > 0 { request = request.validate(statusCode: 100..<500) }
            let response = await request.serializingData(emptyResponseCodes: Set(100..<600)).response
            return output.response(response, verbose: invocation.verbose, requireHTTP2: invocation.http2,
                                   sessionHeaders: session.sessionConfiguration.headers)
        } catch let error as Invocation.UsageError {
            return output.usage(error)
        } catch {
            return output.failure("\(error)", status: 6)
        }
    }

    private func makeRequest(_ url: URL, on session: Session) throws -> DataRequest {
        let method = HTTPMethod(rawValue: invocation.effectiveMethod)
        let headers = invocation.headers
        if let path = invocation.upload {
            let file = URL(fileURLWithPath: path)
            guard FileManager.default.isReadableFile(atPath: path) else { throw SessionFactory.Failure(description: "cannot read \(path)") }
            return session.upload(file, to: url, method: method, headers: headers)
        }
        if invocation.multipart {
            let form = MultipartFormData()
            for (name, value) in RequestItem.formFields(invocation.items) { form.append(Data(value.utf8), withName: name) }
            for case let .file(name, path) in invocation.items {
                guard FileManager.default.isReadableFile(atPath: path) else {
                    throw SessionFactory.Failure(description: "cannot read \(path)")
                }
                form.append(URL(fileURLWithPath: path), withName: name)
            }
            return session.upload(multipartFormData: form, to: url, method: method, headers: headers)
        }
        var request = URLRequest(url: url)
        request.method = method
        request.headers = headers
        if invocation.form {
            let fields = RequestItem.formFields(invocation.items)
            if !fields.isEmpty {
                var components = URLComponents()
                components.queryItems = fields.map { URLQueryItem(name: $0.0, value: $0.1) }
                request.httpBody = Data((components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B").utf8)
                if request.headers["Content-Type"] == nil {
                    request.headers.add(.contentType("application/x-www-form-urlencoded; charset=utf-8"))
                }
            }
        } else if invocation.readsStdin {
            let body = FileHandle.standardInput.readDataToEndOfFile()
            if !body.isEmpty {
                request.httpBody = body
                if request.headers["Content-Type"] == nil {
                    let isJSON = (try? JSONSerialization.jsonObject(with: body, options: .fragmentsAllowed)) != nil
                    request.headers.add(.contentType(isJSON ? "application/json" : "application/octet-stream"))
                }
            }
        } else if let body = try RequestItem.jsonBody(invocation.items) {
            request.httpBody = body
            if request.headers["Content-Type"] == nil { request.headers.add(.contentType("application/json")) }
            if request.headers["Accept"] == nil { request.headers.add(.accept("application/json, */*;q=0.5")) }
        }
        return session.request(request)
    }
}
