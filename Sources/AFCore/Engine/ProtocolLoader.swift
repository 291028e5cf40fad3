import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One load of a request by an app's `URLProtocol` class, in curl's place: the protocol's client.
/// It gathers the response and body the protocol hands over (from any thread) and gives them to
/// its task once, when the protocol finishes or fails, or when the task is cancelled.
final class ProtocolLoader: NSObject, URLProtocolClient, @unchecked Sendable {
    /// The protocol instance: started and stopped on `loaderQueue` only.
    private struct Loading: @unchecked Sendable {
        let instance: URLProtocol
    }

    private struct Gathered {
        var loading: Loading?
        var response: URLResponse?
        var body = Data()
        var ended = false
    }

    private let gathered = Protected(Gathered())
    /// Where the protocol is started and stopped: one load at a time, off the engine and the
    /// task's queues.
    private let loaderQueue = DispatchQueue(label: "AF.URLProtocol")
    private let ended: @Sendable (URLResponse?, Data, (any Error)?) -> Void

    /// A loader that calls `ended` once with what the protocol produced.
    init(ended: @escaping @Sendable (URLResponse?, Data, (any Error)?) -> Void) {
        self.ended = ended
    }

    /// Makes an instance of `protocolClass` for `request` and starts it.
    func start(_ protocolClass: URLProtocol.Type, request: URLRequest) {
        let loading = Loading(instance: protocolClass.init(request: request, cachedResponse: nil, client: self))
        gathered.withLock { $0.loading = loading }
        loaderQueue.async { loading.instance.startLoading() }
    }

    /// Stops the protocol; the load ends with `URLError.cancelled`.
    func cancel() {
        end(error: URLError(.cancelled))
    }

    /// Ends the load once; the protocol is stopped then, as URLSession stops it when a load ends.
    private func end(error: (any Error)?) {
        let outcome = gathered.withLock { state -> (Loading?, URLResponse?, Data)? in
            guard !state.ended else { return nil }
            state.ended = true
            defer { state.loading = nil }
            return (state.loading, state.response, state.body)
        }
        guard let (loading, response, body) = outcome else { return }
        if let loading { loaderQueue.async { loading.instance.stopLoading() } }
        ended(response, body, error)
    }

    // MARK: URLProtocolClient

    func urlProtocol(_ protocol: URLProtocol, didReceive response: URLResponse, cacheStoragePolicy policy: URLCache.StoragePolicy) {
        gathered.withLock { $0.response = response }
    }

    func urlProtocol(_ protocol: URLProtocol, didLoad data: Data) {
        gathered.withLock { $0.body.append(data) }
    }

    func urlProtocolDidFinishLoading(_ protocol: URLProtocol) {
        end(error: nil)
    }

    func urlProtocol(_ protocol: URLProtocol, didFailWithError error: any Error) {
        end(error: error)
    }

    /// A redirect the protocol reports is the load's answer: its response, not followed.
    func urlProtocol(_ protocol: URLProtocol, wasRedirectedTo request: URLRequest, redirectResponse: URLResponse) {
        gathered.withLock { $0.response = redirectResponse }
        end(error: nil)
    }

    func urlProtocol(_ protocol: URLProtocol, cachedResponseIsValid cachedResponse: CachedURLResponse) {}

    func urlProtocol(_ protocol: URLProtocol, didReceive challenge: URLAuthenticationChallenge) {}

    func urlProtocol(_ protocol: URLProtocol, didCancel challenge: URLAuthenticationChallenge) {}
}
