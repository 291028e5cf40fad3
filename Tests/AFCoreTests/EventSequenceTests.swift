import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A request's events as async sequences: each yields what its handler would get and ends once
/// the request finished.
@Suite(.timeLimit(.minutes(1))) struct EventSequenceTests {
    private func collect<Element: Sendable>(_ sequence: StreamOf<Element>) -> Task<[Element], Never> {
        Task {
            var elements: [Element] = []
            for await element in sequence { elements.append(element) }
            return elements
        }
    }

    @Test func aDataRequestsSequencesYieldItsEventsAndEnd() async throws {
        let session = makeSession()
        let request = session.request(Server.http("/static/1mb.bin"))
        let requests = collect(request.urlRequests())
        let tasks = collect(request.urlSessionTasks())
        let descriptions = collect(request.cURLDescriptions())
        let responses = collect(request.httpResponses())
        let progress = collect(request.downloadProgress())
        let data = try await request.serializingData().value
        #expect(await requests.value.map(\.url) == [request.request?.url])
        let task = try #require(await tasks.value.first)
        #expect(task === request.task)
        #expect(await descriptions.value.first?.hasPrefix("$ curl") == true)
        #expect(await responses.value.map(\.statusCode) == [200])
        let fractions = await progress.value.map(\.fractionCompleted)
        #expect(!fractions.isEmpty && fractions.last == 1 && data.count == 1 << 20)
    }

    @Test func anUploadsProgressSequenceEndsWithEverythingSent() async throws {
        let session = makeSession()
        let upload = session.upload(Data(count: 256 << 10), to: Server.httpbin("/post"))
        let sent = collect(upload.uploadProgress())
        _ = try await upload.serializingData().value
        let last = try #require(await sent.value.last)
        #expect(last.completedUnitCount == 256 << 10)
    }

    @Test func aSequenceMadeAfterTheRequestFinishedEndsAtOnce() async throws {
        let session = makeSession()
        let request = session.request(Server.http("/bench.json"))
        _ = try await request.serializingData().value
        let requests = await collect(request.urlRequests()).value
        #expect(requests.count == 1, "the latest request is replayed, then the sequence ends")
    }

    /// A cancelled request stays `.cancelled` once done: sequences made after that end too.
    @Test func aSequenceMadeAfterACancelledRequestEndedEndsAtOnce() async throws {
        let session = makeSession()
        let request = session.request(Server.http("/bench.json"))
        request.cancel()
        #expect(await request.serializingData().response.error?.isExplicitlyCancelledError == true)
        let requests = await collect(request.urlRequests()).value
        let progress = await collect(request.downloadProgress()).value
        #expect(requests.count <= 1)
        #expect(progress.count <= 1)
    }

    @Test func aStreamRequestsResponsesToo() async throws {
        let session = makeSession()
        let request = session.streamRequest(Server.http("/bench.json"))
        let responses = collect(request.httpResponses())
        for await _ in request.streamTask().streamingData() {}
        #expect(await responses.value.map(\.statusCode) == [200])
    }
}
