import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// A task served by one of the app's `URLProtocol` classes instead of curl: the protocol gets the
// request as URLSession would hand it over (the session's headers added, the body attached,
// canonicalized by the class), and its answer ends the task as a network response would, with
// its events and metrics. Runs on the task's queue.
extension SessionTask {
    /// Starts the load of the current request by `protocolClass`.
    func startThroughProtocol(_ protocolClass: URLProtocol.Type) {
        let request = mutableState.withLock { $0.currentRequest }
        let start = Date()
        let loader = ProtocolLoader { [self] response, body, error in
            queue.async(recording: handOffs) {
                self.finishThroughProtocol(request: request, response: response, body: body, error: error, start: start)
            }
        }
        let loading = mutableState.withLock { state -> Bool in
            guard state.state == .running || state.state == .suspended else { return false }
            state.protocolLoader = loader
            state.hopStart = start
            return true
        }
        guard loading else {
            let error = URLError(.cancelled, userInfo: [NSURLErrorFailingURLErrorKey: request.url as Any])
            return deliver(request: request, response: nil, data: Data(), error: error)
        }
        loader.start(protocolClass, request: protocolClass.canonicalRequest(for: protocolRequest(for: request)))
    }

    /// `request` as URLSession hands it to a protocol: with the session's header fields it lacks,
    /// and the task's upload body.
    private func protocolRequest(for request: URLRequest) -> URLRequest {
        var sent = request
        for header in configuration.additionalHeaders where sent.value(forHTTPHeaderField: header.name) == nil {
            sent.setValue(header.value, forHTTPHeaderField: header.name)
        }
        switch upload {
        case let .data(data)?: sent.httpBody = data
        case let .file(url)?: sent.httpBodyStream = InputStream(url: url)
        case let .stream(stream)?: sent.httpBodyStream = stream
        case let .segments(segments)?: sent.httpBodyStream = InputStream(data: segments.joinedData())
        case nil: break
        }
        return sent
    }

    private func finishThroughProtocol(request: URLRequest, response: URLResponse?, body: Data, error: (any Error)?, start: Date) {
        let answer = response.map { response in
            ReceivedResponse(response as? HTTPURLResponse
                ?? HTTPURLResponse(url: response.url ?? request.url ?? URL(fileURLWithPath: "/"), statusCode: 200,
                                   httpVersion: nil, headerFields: nil)!)
        }
        let (running, download) = mutableState.withLock { state -> (Bool, DownloadTarget?) in
            state.protocolLoader = nil
            guard state.state == .running || state.state == .suspended else { return (false, nil) }
            if let answer {
                state.transactions.append(.loadedByProtocol(request: request, response: answer, bodyBytes: body.count,
                                                            start: start, end: Date()))
            }
            state.bytesReceived += Int64(body.count)
            return (true, state.download)
        }
        guard running else {
            let error = URLError(.cancelled, userInfo: [NSURLErrorFailingURLErrorKey: request.url as Any])
            return deliver(request: request, response: nil, data: Data(), error: error)
        }
        guard error == nil, let answer else {
            return deliver(request: request, response: answer, data: body, error: error ?? URLError(.badServerResponse))
        }
        if let download {
            do {
                try body.write(to: download.file)
            } catch {
                return deliver(request: request, response: answer, data: Data(), error: error)
            }
        }
        reportAsFinal(answer, body: body)
        if let delegate, delegate.observesProgress {
            let count = Int64(body.count)
            delegate.task(self, didUpdate: TransferProgress(bytesReceived: count, bytesExpectedToReceive: count))
        }
        deliver(request: request, response: answer, data: download == nil ? body : Data(), error: nil)
    }
}

extension TransactionMetrics {
    /// The record of an answer from an app's `URLProtocol`: a network load of which only the
    /// times and body size are known.
    static func loadedByProtocol(request: URLRequest, response: ReceivedResponse, bodyBytes: Int, start: Date, end: Date)
        -> TransactionMetrics {
        TransactionMetrics(
            request: request, received: response, fetchStartDate: start, responseEndDate: end,
            domainLookupDuration: nil, connectDuration: nil, secureConnectionDuration: nil, timeToFirstByte: nil,
            totalDuration: end.timeIntervalSince(start), networkProtocolName: nil, isReusedConnection: false,
            countOfRequestBodyBytesSent: 0, countOfResponseHeaderBytesReceived: 0,
            countOfResponseBodyBytesReceived: Int64(bodyBytes),
            remoteAddress: nil, remotePort: nil, localAddress: nil, localPort: nil)
    }
}

extension UploadSegments {
    /// The body the segments make, read into memory (for a protocol, which takes a stream; a
    /// file that cannot be read gives no bytes, and the protocol sees a short body).
    func joinedData() -> Data {
        var data = Data()
        for segment in segments {
            switch segment {
            case let .bytes(bytes):
                data.append(bytes)
            case let .file(url, offset, length, _):
                guard let handle = try? FileHandle(forReadingFrom: url) else { continue }
                defer { try? handle.close() }
                try? handle.seek(toOffset: offset)
                if let read = try? handle.read(upToCount: Int(length)) { data.append(read) }
            }
        }
        return data
    }
}
