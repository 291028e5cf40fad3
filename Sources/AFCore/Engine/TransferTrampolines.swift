import CCurl
import CCurlShim
import Foundation

// The C function pointers handed to curl. Each finds its transfer in the context pointer curl
// passes back (the transfer set as the handle's data, unretained: the engine holds it while
// curl runs it) and calls the transfer's handler for it (`Transfer+Callbacks`), without
// retaining it for the call.

/// Runs `body` with the transfer of `context`, not retained for the call: the engine holds the
/// transfer while curl runs it, and callbacks run a few times a response (one per header line).
@inline(__always)
func withTransfer<Result>(from context: UnsafeMutableRawPointer?, _ body: (Transfer) -> Result) -> Result {
    Unmanaged<Transfer>.fromOpaque(context!)._withUnsafeGuaranteedRef(body)
}

let transferWriteCallback: afc_data_callback = { buffer, size, count, context in
    let length = size * count
    guard let buffer, length > 0 else { return length }
    switch withTransfer(from: context, { $0.receiveBody(buffer, count: length) }) {
    case .taken: return length
    case .pause: return afc_writefunc_pause()
    case .refused: return 0  // curl stops with CURLE_WRITE_ERROR; the writer's error is reported
    }
}

let transferHeaderCallback: afc_data_callback = { buffer, size, count, context in
    let length = size * count
    if let buffer {
        let line = UnsafeBufferPointer(start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: length)
        withTransfer(from: context) { $0.receiveHeaderLine(line) }
    }
    return length
}

let transferReadCallback: afc_data_callback = { buffer, size, count, context in
    guard let buffer else { return 0 }
    return withTransfer(from: context) { $0.readBody(into: buffer, count: size * count) }
}

let transferSeekCallback: afc_seek_callback = { context, offset, origin in
    guard origin == SEEK_SET else { return CURL_SEEKFUNC_CANTSEEK }
    return withTransfer(from: context) { $0.seekBody(to: Int64(offset)) } ? CURL_SEEKFUNC_OK : CURL_SEEKFUNC_FAIL
}

/// The process-wide trust callback: the context is the transfer whose handshake it is.
let transferTrustCallback: afc_trust_callback = { context, certificates, lengths, count, trusted, error, staple, stapleLength in
    withTransfer(from: context) { transfer in
        // Enabled only for transfers whose trust is evaluated, which name the host the handshake
        // verifies (`localhost` for an `https+unix` URL, whose host is a path).
        guard case let .evaluate(_, host) = transfer.spec.trust else { return 1 }
        let chain = (0..<count).map { Data(bytes: certificates[$0], count: lengths[$0]) }
        let trust = ServerTrust(certificateData: chain, host: host,
                                defaultEvaluationSucceeded: trusted != 0,
                                defaultEvaluationError: error.map { String(cString: $0) },
                                stapledOCSPResponse: staple.map { Data(bytes: $0, count: stapleLength) })
        return transfer.evaluateTrust(trust) ? 1 : 0
    }
}

let transferProgressCallback: afc_xferinfo_callback = { context, downloadTotal, downloaded, uploadTotal, uploaded in
    let progress = TransferProgress(bytesSent: Int64(uploaded), bytesExpectedToSend: Int64(uploadTotal),
                                    bytesReceived: Int64(downloaded), bytesExpectedToReceive: Int64(downloadTotal))
    withTransfer(from: context) { $0.updateProgress(progress) }
    return 0
}
