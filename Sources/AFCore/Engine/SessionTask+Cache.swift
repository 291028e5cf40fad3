import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// How a task uses an HTTP cache (RFC 9111, private): answer from it, revalidate through it, or
// go to the network; then store, refresh or invalidate. Runs on the task's queue.
extension SessionTask {
    /// Whether the task's exchanges go through the HTTP cache: those whose bodies are held in
    /// memory or streamed (a stream is copied for the cache up to `streamCopyLimit`), not
    /// downloads or uploads.
    func usesHTTPCache(download: DownloadTarget?) -> Bool {
        download == nil && upload == nil
    }

    /// Answers from `cache`, or starts the exchange it calls for (conditional or not).
    func startThroughCache(_ cache: any HTTPCacheStorage) {
        let request = mutableState.withLock { $0.currentRequest }
        // What the exchange would send: whose entries it may see, and what Vary is matched against.
        let spec = configuration.transferSpec(for: request, credential: credential(for: request))
        let fields = CacheRequestFields(sentBy: spec)
        let credentials = CacheCredentials(sentBy: spec)
        let entries = fields.method == "GET" ? request.url.map { cache.cachedEntries(for: $0, credentials: credentials) } ?? [] : []
        switch CacheLookup.decide(fields, policy: configuration.cachePolicy(for: request), entries: entries, now: Date()) {
        case let .useStored(entry, age):
            answer(with: entry, age: age, request: request)
        case .revalidate where bodyStream != nil:
            // A stream has already handed over a 304's head before the stored body could follow:
            // it fetches the whole response again (and stores it anew).
            startHop(request, after: request, response: nil, body: Data(), sending: spec)
        case let .revalidate(entry, conditions):
            var conditional = request
            for condition in conditions where request.value(forHTTPHeaderField: condition.name) == nil {
                conditional.setValue(condition.value, forHTTPHeaderField: condition.name)
            }
            mutableState.withLock { $0.cacheRevalidating = entry }
            startHop(conditional, after: request, response: nil, body: Data())
        case let .fetch(mayStore):
            mutableState.withLock { $0.cacheMayStore = mayStore }
            // The exchange sends what the lookup was made for: its spec, not another one.
            startHop(request, after: request, response: nil, body: Data(), sending: spec)
        case .unsatisfiable:
            let error = URLError(.resourceUnavailable, userInfo: [NSURLErrorFailingURLErrorKey: request.url as Any])
            finish(request: request, response: nil, data: Data(), error: error)
        }
    }

    /// Completes the task with `entry`, as if it had arrived: head, body, progress, completion.
    private func answer(with entry: HTTPCacheEntry, age: TimeInterval, request: URLRequest) {
        let start = Date()
        let response = entry.servedResponse(age: age)
        let answering = mutableState.withLock { state -> Bool in
            guard state.state == .running || state.state == .suspended else { return false }
            state.transactions.append(.localCache(request: request, response: response, start: start, end: Date()))
            state.bytesReceived += Int64(entry.body.count)
            return true
        }
        guard answering else {
            let error = URLError(.cancelled, userInfo: [NSURLErrorFailingURLErrorKey: request.url as Any])
            return deliver(request: request, response: nil, data: Data(), error: error)
        }
        // A stream request takes its head and body as events; its flow control counts the body.
        reportAsFinal(response, body: entry.body)
        if let delegate, delegate.observesProgress {
            let count = Int64(entry.body.count)
            delegate.task(self, didUpdate: TransferProgress(bytesReceived: count, bytesExpectedToReceive: count))
        }
        deliver(request: request, response: response, data: entry.body, error: nil)
    }

    /// A 304 to a revalidation: the stored response, refreshed by the 304's fields, is the answer.
    func answerRevalidated(_ entry: HTTPCacheEntry, by notModified: ReceivedResponse, request: URLRequest,
                           credentials: CacheCredentials, in cache: any HTTPCacheStorage) {
        let requestDate = mutableState.withLock { state in
            if !state.transactions.isEmpty {
                state.transactions[state.transactions.count - 1].resourceFetchType = .revalidatedCache
            }
            return state.hopStart
        }
        let now = Date()
        let refreshed = CacheStoreRules.refreshed(entry, by: notModified.headers, requestDate: requestDate, responseDate: now)
        cache.storeEntry(refreshed, credentials: credentials)
        let served = refreshed.servedResponse(age: CacheFreshness.age(of: refreshed, now: now))
        deliver(request: request, response: served, data: refreshed.body, error: nil)
    }

    /// Stores what the cached-response handler chose, for requests with `credentials` and the
    /// Vary-matched `fields` (those the exchange sent).
    func store(_ chosen: CachedURLResponse, for request: URLRequest, fields: CacheRequestFields,
               credentials: CacheCredentials, in storage: any ResponseCacheStorage) {
        guard let cache = storage as? any HTTPCacheStorage else {
            return storage.storeCachedResponse(chosen, for: request)
        }
        guard let response = chosen.response as? HTTPURLResponse, let url = request.url else { return }
        let requestDate = mutableState.withLock { $0.hopStart }
        let entry = CacheStoreRules.entry(for: fields, url: url, statusCode: response.statusCode, headers: response.headers,
                                          body: chosen.data, requestDate: requestDate, responseDate: Date())
        if let foundation = cache as? FoundationCacheStorage {
            // A URLCache returns what was stored: the handler's userInfo is kept with it.
            foundation.store(entry, credentials: credentials, userInfo: chosen.userInfo)
        } else {
            cache.storeEntry(entry, credentials: credentials)
        }
    }

    /// After an unsafe method that succeeded, forgets what the cache holds for its URL and the
    /// same-origin URLs its Location and Content-Location name (RFC 9111 §4.4).
    func invalidateIfUnsafe(request: URLRequest, response: ReceivedResponse, in cache: any HTTPCacheStorage) {
        guard let url = request.url,
              CacheStoreRules.invalidates(method: request.httpMethod ?? "GET", statusCode: response.statusCode) else { return }
        let named = ["Location", "Content-Location"].compactMap { response.value(for: $0) }
            .compactMap { URL(string: $0, relativeTo: url)?.absoluteURL }
            .filter { RedirectRules.isSameOrigin(url, $0) }
        for target in [url] + named { cache.removeEntries(for: target) }
    }
}

extension CacheCredentials {
    /// The credentials an exchange sends: its header lines, URL and challenge credential.
    init(sentBy spec: TransferSpec) {
        let headers = spec.headerLines.lazy.compactMap { line in
            CacheRequestFields.field(of: line, among: Self.headerNames).map { ($0.name, String($0.value)) }
        }
        self.init(headers: headers, url: spec.requestURL, user: spec.credential?.user, password: spec.credential?.password)
    }
}

extension HTTPCacheEntry {
    /// The entry as the response served when it is `age` seconds old: its status and stored
    /// fields, with the current Age (`CacheStoreRules.servedAge`) in place of a stored one, or
    /// last when none was stored (its HTTPURLResponse built only if read). Without a stored Age,
    /// the fields come as parsed with the entry.
    func servedResponse(age: TimeInterval) -> ReceivedResponse {
        let ageValue = CacheStoreRules.servedAge(age)
        if var head = parsed.headWithoutAge {
            head.statusCode = statusCode
            head.append(name: "Age", value: ageValue)
            return ReceivedResponse(head: head, url: url)
        }
        let ageIndex = headers.firstIndex(named: "Age")
        var head = ResponseHead(statusCode: statusCode, httpVersion: "HTTP/1.1", headers: [])
        for index in headers.indices {
            if index == ageIndex {
                head.append(name: "Age", value: ageValue)
            } else {
                head.append(name: headers[index].name, value: headers[index].value)
            }
        }
        return ReceivedResponse(head: head, url: url)
    }
}
