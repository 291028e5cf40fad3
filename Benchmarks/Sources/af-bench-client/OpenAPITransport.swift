import AFCore
import AFOpenAPI
import BenchSupport
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// One transfer through AFOpenAPI's `AFTransport`, as a generated client makes it:
/// `openapi-stream` reads the response body of a GET of `url` chunk by chunk, counting it;
/// `openapi-upload` POSTs the file at `path`, read in 64 KiB chunks into an `HTTPBody` of known
/// length, to the fixtures' /sink. Prints one result line and exits.
func runOpenAPITransfer(mode: String, url: String, path: String) -> Never {
    let done = DispatchSemaphore(value: 0)
    let outcome = Outcome()
    let start = DispatchTime.now()
    Task {
        do {
            outcome.bytes = try await openAPITransfer(mode: mode, url: url, path: path)
        } catch {
            FileHandle.standardError.write(Data("af-bench-client \(mode): \(error)\n".utf8))
            outcome.bytes = -1
        }
        done.signal()
    }
    done.wait()
    reportTransfer(bytes: outcome.bytes, since: start)
}

private func openAPITransfer(mode: String, url: String, path: String) async throws -> Int {
    let session = Session(configuration: URLSessionConfiguration.af.default)
    let transport = AFTransport(session: session)
    guard let target = URL(string: url), let base = URL(string: "/", relativeTo: target)?.absoluteURL else { return -1 }
    let requestPath = target.path
    if mode == "openapi-upload" {
        let file = URL(fileURLWithPath: path)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        let chunks = FileChunks(handle: try FileHandle(forReadingFrom: file))
        let request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: requestPath)
        let (response, body) = try await transport.send(request, body: HTTPBody(chunks, length: .known(Int64(size)), iterationBehavior: .single),
                                                        baseURL: base, operationID: "upload")
        guard response.status == .ok, let body else { return -1 }
        let answer = try await Data(collecting: body, upTo: 1 << 16)
        return (try? JSONDecoder().decode([String: Int].self, from: answer))?["bytes"] ?? -1
    }
    let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: requestPath)
    let (response, body) = try await transport.send(request, body: nil, baseURL: base, operationID: "download")
    guard response.status == .ok, let body else { return -1 }
    var count = 0
    for try await chunk in body { count += chunk.count }
    return count
}

/// A file's bytes in 64 KiB chunks, each read when the consumer asks for it (as a body made from
/// a file would be: nothing is read ahead of the upload).
struct FileChunks: AsyncSequence, @unchecked Sendable {
    let handle: FileHandle

    func makeAsyncIterator() -> Iterator { Iterator(handle: handle) }

    struct Iterator: AsyncIteratorProtocol {
        let handle: FileHandle

        mutating func next() async throws -> ArraySlice<UInt8>? {
            guard let data = try handle.read(upToCount: 1 << 16), !data.isEmpty else { return nil }
            return ArraySlice(data)
        }
    }
}
