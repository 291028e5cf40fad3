import AFCombine
import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@preconcurrency import OpenCombine
import Testing

/// Alamofire's publishers over OpenCombine, against the local servers.
@Suite(.timeLimit(.minutes(1))) struct PublisherTests {
    /// The values a publisher emits until it finishes.
    private func values<P: Publisher>(of publisher: P) async -> [P.Output] where P.Failure == Never, P.Output: Sendable {
        let collected = Protected<[P.Output]>([])
        let keeper = Protected<AnyCancellable?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let cancellable = publisher.sink(receiveCompletion: { _ in continuation.resume() },
                                             receiveValue: { value in collected.withLock { $0.append(value) } })
            keeper.withLock { $0 = cancellable }
        }
        return collected.value
    }

    private struct Echo: Decodable, Sendable { let url: String }

    @Test func dataRequestPublishersEmitOneResponseAndFinish() async throws {
        let session = makeSession()
        let data = await values(of: session.request(Server.http("/bench.json")).publishData())
        #expect(data.count == 1 && data.first?.value?.count == 17)
        let string = await values(of: session.request(Server.http("/bench.json")).publishString(queue: .global()))
        #expect(string.first?.value?.hasPrefix("{") == true)
        let decoded = await values(of: session.request(Server.httpbin("/get")).publishDecodable(type: Echo.self))
        #expect(decoded.first?.value?.url.hasSuffix("/get") == true)
        let unserialized = await values(of: session.request(Server.http("/bench.json")).publishUnserialized())
        #expect(unserialized.first?.data?.count == 17)
        let results = await values(of: session.request(Server.httpbin("/status/500")).validate().publishData().result())
        #expect(results.count == 1 && (try? results.first?.get()) == nil)
    }

    @Test func valueFailsWithTheAFError() async throws {
        let session = makeSession()
        let failure = Protected<AFError?>(nil)
        let keeper = Protected<AnyCancellable?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            keeper.withLock {
                $0 = session.request(Server.httpbin("/status/404")).validate().publishData().value()
                    .sink(receiveCompletion: { completion in
                        if case let .failure(error) = completion { failure.withLock { $0 = error } }
                        continuation.resume()
                    }, receiveValue: { _ in })
            }
        }
        #expect(failure.value?.responseCode == 404)
    }

    @Test func cancellingTheSubscriptionCancelsTheRequest() async throws {
        let session = makeSession()
        let request = session.request(Server.faults("/stall"))
        let subscription = Protected<AnyCancellable?>(nil)
        let _: URLSessionTask = await response { done in
            request.onURLSessionTaskCreation(on: .global()) { done($0) }
            subscription.withLock { $0 = request.publishData().sink { _ in } }  // starts the request
        }
        subscription.withLock { $0?.cancel() }
        let response = await request.serializingData().response
        #expect(response.error?.isExplicitlyCancelledError == true)
    }

    @Test func downloadPublishersEmitTheFileAndItsContent() async throws {
        let session = makeSession()
        let urls = await values(of: session.download(Server.http("/bench.json")).publishURL())
        let url = try #require(urls.first?.value)
        #expect((try? Data(contentsOf: url))?.count == 17)
        try? FileManager.default.removeItem(at: url)
        let data = await values(of: session.download(Server.http("/bench.json")).publishData())
        #expect(data.first?.value?.count == 17)
        if let file = data.first?.fileURL { try? FileManager.default.removeItem(at: file) }
        let raw = await values(of: session.download(Server.http("/bench.json")).publishUnserialized())
        if let file = raw.first?.fileURL { try? FileManager.default.removeItem(at: file) }
        #expect(raw.first?.error == nil)
    }

    @Test func zipOfTwoRequestsEmitsOncePairAndFinishes() async throws {
        let session = makeSession()
        for _ in 0..<20 {
            let first = session.request(Server.httpbin("/get")).publishDecodable(type: Echo.self, queue: .global())
            let second = session.request(Server.http("/bench.json")).publishData(queue: .global())
            let pairs = await values(of: Publishers.Zip(first, second))
            #expect(pairs.count == 1)
            #expect(pairs.first?.0.value?.url.hasSuffix("/get") == true && pairs.first?.1.value?.count == 17)
        }
    }

    @Test func flatMapPrefixAndFirstEndEarlyWithoutTrouble() async throws {
        let session = makeSession()
        let chained = session.request(Server.http("/bench.json")).publishData(queue: .global())
            .flatMap { _ in session.request(Server.httpbin("/get")).publishDecodable(type: Echo.self, queue: .global()) }
        #expect(await values(of: chained).first?.value?.url.hasSuffix("/get") == true)
        let first = session.request(Server.http("/bench.json")).publishData(queue: .global()).first()
        #expect(await values(of: first).count == 1)
        // A stream's first chunk, then the subscription is cancelled while chunks keep coming.
        let prefix = session.streamRequest(Server.http("/static/1mb.bin")).publishData(queue: .global()).prefix(1)
        #expect(await values(of: prefix).count == 1)
    }

    @Test func droppingTheCancellableCancelsTheRequest() async throws {
        let session = makeSession()
        let request = session.request(Server.faults("/stall"))
        var cancellable: AnyCancellable? = request.publishData(queue: .global()).sink { _ in }  // starts the request
        withExtendedLifetime(cancellable) {}
        cancellable = nil  // dropped: AnyCancellable cancels on deinit
        let response = await request.serializingData().response
        #expect(response.error?.isExplicitlyCancelledError == true)
    }

    @Test func aStreamPublisherEmitsChunksThenTheCompletion() async throws {
        let session = makeSession()
        let events = await values(of: session.streamRequest(Server.http("/static/1mb.bin")).publishData())
        let bytes = events.compactMap { try? $0.result?.get() }.reduce(0) { $0 + $1.count }
        #expect(bytes == 1 << 20)
        guard case .complete = events.last?.event else { return #expect(Bool(false), "the last event completes") }
    }
}
