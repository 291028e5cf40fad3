import CCurl
import CCurlShim
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Setting up a handle for one exchange: curl's options from the spec (method, body, files,
// trust, headers, credentials), on the engine thread before the transfer starts.
extension Transfer {
    /// Applies the spec to `handle`; false when the transfer cannot start (see `setupFailure`).
    /// `engine` is woken by a stream upload that has new data (the pump holds it until the
    /// transfer ends).
    func configure(_ handle: EasyHandle, engine: CurlEngine) -> Bool {
        self.handle = handle
        phase = .running(handle)
        if let unsafe = spec.unsafe {
            setupFailure = CurlFailure(code: CURLE_BAD_FUNCTION_ARGUMENT, message: unsafe.description,
                                       afError: .createURLRequestFailed(error: unsafe))
            return false
        }
        // HTTP(S) with a host, or a local file as URLSession reads one: curl would guess
        // `http://` for a URL without a scheme, and speaks protocols URLSession does not.
        guard spec.target != .unsupported else {
            let reason = "unsupported URL: only http and https URLs with a host, and file URLs, are supported"
            setupFailure = CurlFailure(code: CURLE_UNSUPPORTED_PROTOCOL, message: reason, localError: URLError(.unsupportedURL, userInfo: [
                NSLocalizedDescriptionKey: reason, NSURLErrorFailingURLErrorKey: spec.requestURL as Any,
            ]))
            return false
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let paths = engine.paths
        handle.prepare(standing: standing) { handle in
            if let sockets = paths.sockets { afc_easy_setopt_path_sockets(handle.raw, sockets) }
            handle.set(CURLOPT_PROTOCOLS_STR, string: "http,https")
            handle.set(CURLOPT_WRITEFUNCTION, callback: transferWriteCallback)
            handle.set(CURLOPT_HEADERFUNCTION, callback: transferHeaderCallback)
            handle.set(CURLOPT_ACCEPT_ENCODING, string: "")
        }
        if !isPlain { handle.markSpecial() }
        if spec.target == .file {
            // The one exchange that may read a local file; the handle is cleared after it.
            handle.set(CURLOPT_PROTOCOLS_STR, string: "file")
            handle.markSpecial()
        }
        handle.setURL(spec.url, parsed: parsedURL)
        handle.set(CURLOPT_WRITEDATA, pointer: context)
        handle.set(CURLOPT_HEADERDATA, pointer: context)
        pathGeneration = paths.generation
        if let sockets = paths.sockets {
            socketSlot.pointee = afc_socket_slot(sockets: sockets, refused: 0)
            pathDropsAtStart = afc_path_sockets_drops(sockets)
            handle.set(CURLOPT_OPENSOCKETDATA, pointer: UnsafeMutableRawPointer(socketSlot))
        }
        if let uploadFile = spec.uploadFile {
            guard let reader = prepare(CURLE_READ_ERROR, { () throws(URLError) in try FileUploadReader(url: uploadFile) })
            else { return false }
            uploadReader = reader
            handle.set(CURLOPT_UPLOAD_BUFFERSIZE, Self.uploadBufferSize)
        }
        if let segments = spec.uploadSegments {
            if let problem = SegmentedUploadReader.problem(in: segments) {
                setupFailure = CurlFailure(code: CURLE_READ_ERROR, message: problem.localizedDescription, afError: problem)
                return false
            }
            uploadReader = SegmentedUploadReader(segments)
            handle.set(CURLOPT_UPLOAD_BUFFERSIZE, Self.uploadBufferSize)
        }
        if let download = spec.download {
            guard let writer = prepare(CURLE_WRITE_ERROR, { () throws(URLError) in try FileDownloadWriter(target: download) })
            else { return false }
            downloadWriter = writer
            handle.set(CURLOPT_BUFFERSIZE, Self.downloadBufferSize)
        }
        if let stream = spec.uploadStream {
            uploadPump = StreamUploadPump(stream: stream) { [weak self] in
                guard let self else { return }
                engine.resumeFlow(self)
            }
            handle.set(CURLOPT_UPLOAD_BUFFERSIZE, Self.uploadBufferSize)
        }
        guard configureTrust(handle, context: context) else { return false }
        configureMethodAndBody(handle)
        if reportsProgress {
            handle.set(CURLOPT_NOPROGRESS, 0)
            afc_easy_setopt_xferinfo_callback(handle.raw, transferProgressCallback)
            handle.set(CURLOPT_XFERINFODATA, pointer: context)
        }
        // "Expect:" keeps curl from waiting for a 100 Continue before sending a body.
        handle.setHeaders(spec.headerLines, then: "Expect:")
        if let credential = spec.credential {
            handle.set(CURLOPT_USERNAME, string: credential.user)
            handle.set(CURLOPT_PASSWORD, string: credential.password)
            handle.set(CURLOPT_HTTPAUTH, afc_httpauth_basic_digest())
        }
        return true
    }

    /// Hands the handshake to the trust evaluator, which also validates the host (so curl does
    /// not), without TLS session resumption (a resumed session skips verification); false when
    /// the manager refused the host.
    func configureTrust(_ handle: EasyHandle, context: UnsafeMutableRawPointer) -> Bool {
        switch spec.trust {
        case nil:
            return true
        case let .refuse(error):
            setupFailure = CurlFailure(code: CURLE_PEER_FAILED_VERIFICATION, message: error.localizedDescription, afError: error)
            return false
        case .evaluate:
            afc_easy_enable_trust_callback(handle.raw, context)
            handle.set(CURLOPT_SSL_VERIFYHOST, 0)
            handle.set(CURLOPT_SSL_SESSIONID_CACHE, 0)
            return true
        }
    }

    /// Opens a file the transfer needs; on failure records `setupFailure` and returns nil.
    func prepare<Value>(_ code: CURLcode, _ open: () throws(URLError) -> Value) -> Value? {
        do {
            return try open()
        } catch {
            setupFailure = CurlFailure(code: code, message: error.localizedDescription, localError: error)
            return nil
        }
    }

    /// Whether the transfer sets no option beyond the standing ones and its own URL, header
    /// lines, callback context and `GET`: the handle can then serve the next one uncleared.
    var isPlain: Bool {
        spec.method == "GET" && spec.body == nil && spec.uploadFile == nil && spec.uploadStream == nil && spec.uploadSegments == nil
            && spec.download == nil && spec.trust == nil && spec.credential == nil && !reportsProgress
            && spec.responseGate == nil
    }

    func configureMethodAndBody(_ handle: EasyHandle) {
        if let uploadReader {
            return configureStreamedUpload(length: uploadReader.length, seekable: true, on: handle)
        }
        if uploadPump != nil {
            return configureStreamedUpload(length: statedContentLength ?? -1, seekable: false, on: handle)
        }
        switch (spec.method, spec.body) {
        case ("GET", nil):
            handle.set(CURLOPT_HTTPGET, 1)
        case ("HEAD", _):
            handle.set(CURLOPT_NOBODY, 1)
        case let (method, body?):
            setPostFields(body, on: handle)
            if method != "POST" { handle.set(CURLOPT_CUSTOMREQUEST, string: method) }
        case ("POST", nil):
            setPostFields(Data(), on: handle)
        case let (method, nil):
            handle.set(CURLOPT_CUSTOMREQUEST, string: method)
        }
    }

    /// A body curl pulls through its buffer as it sends: from a file (which curl can rewind to
    /// resend) or a stream (length -1 when unknown: chunked on HTTP/1.1).
    func configureStreamedUpload(length: Int64, seekable: Bool, on handle: EasyHandle) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        handle.set(CURLOPT_UPLOAD, 1)
        handle.set(CURLOPT_INFILESIZE_LARGE, offset: length)
        if spec.method != "PUT" { handle.set(CURLOPT_CUSTOMREQUEST, string: spec.method) }
        handle.set(CURLOPT_READFUNCTION, callback: transferReadCallback)
        handle.set(CURLOPT_READDATA, pointer: context)
        if seekable {
            afc_easy_setopt_seek_callback(handle.raw, transferSeekCallback)
            handle.set(CURLOPT_SEEKDATA, pointer: context)
        }
    }

    /// The Content-Length the request's own headers state, if any.
    var statedContentLength: Int64? {
        spec.headerLines.lazy.compactMap { line -> Int64? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, String(parts[0]).equalsIgnoringASCIICase("Content-Length") else { return nil }
            return Int64(parts[1].trimmingCharacters(in: .whitespaces))
        }.first
    }

    /// A body curl copies and can resend by itself when a reused connection turns out dead.
    func setPostFields(_ body: Data, on handle: EasyHandle) {
        handle.set(CURLOPT_POST, 1)
        handle.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(body.count))
        if body.isEmpty {
            handle.set(CURLOPT_COPYPOSTFIELDS, string: "")
            return
        }
        body.withUnsafeBytes { buffer in
            handle.set(CURLOPT_COPYPOSTFIELDS, pointer: UnsafeMutableRawPointer(mutating: buffer.baseAddress))
        }
    }
}
