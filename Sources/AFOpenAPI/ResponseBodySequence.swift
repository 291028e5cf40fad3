import AFCore
import Foundation
import OpenAPIRuntime

/// A response body as a generated client reads it: the stream request's chunks as they arrive,
/// ending with the request; a request that failed ends it with its `AFError`. A chunk counts as
/// consumed once taken, so a slow reader pauses the transfer.
struct ResponseBodySequence: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk

    let events: DataStreamTask.Stream<Data, Never>

    func makeAsyncIterator() -> Iterator {
        Iterator(events: events.makeAsyncIterator())
    }

    /// Why the request ended, for one that ended before a response arrived.
    func failure() async -> any Error {
        var iterator = makeAsyncIterator()
        do {
            while try await iterator.next() != nil {}
        } catch {
            return error
        }
        return AFError.sessionTaskFailed(error: URLError(.badServerResponse))
    }

    struct Iterator: AsyncIteratorProtocol {
        var events: DataStreamTask.Stream<Data, Never>.AsyncIterator
        var ended = false

        mutating func next() async throws -> HTTPBody.ByteChunk? {
            guard !ended else { return nil }
            while let event = await events.next() {
                switch event.event {
                case let .stream(result):
                    let chunk = result.get()
                    if !chunk.isEmpty { return ArraySlice(chunk) }
                case let .complete(completion):
                    ended = true
                    if let error = completion.error { throw error }
                    return nil
                }
            }
            // The events stop before the completion only when their reader's task was
            // cancelled, which cancelled the request.
            ended = true
            throw AFError.explicitlyCancelled
        }
    }
}
