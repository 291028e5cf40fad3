import CCurl
import CCurlShim

/// A transfer's URL parsed by curl's URL parser (a `CURLU`) on the thread that makes the
/// transfer. Handed to curl (`CURLOPT_CURLU`) beside the same URL as a string, it spares the
/// engine thread the parse and the URL's reassembly at the start of every transfer: a tenth of
/// its work for a small request. Curl keeps only the pointer, copies the parse at each attempt to
/// connect, and never frees it; the handle lets go of it when the transfer ends
/// (`EasyHandle.recycle()`, or `reset()` after a failed setup), before the transfer does.
final class ParsedURL: @unchecked Sendable {
    let raw: OpaquePointer

    /// nil when curl's parser refuses `url`: curl then parses the string itself, and reports why.
    init?(_ url: String) {
        guard let raw = curl_url() else { return nil }
        // The flags curl itself parses a transfer's URL with.
        let flags = UInt32(CURLU_GUESS_SCHEME) | UInt32(CURLU_NON_SUPPORT_SCHEME)
        guard url.withCString({ curl_url_set(raw, CURLUPART_URL, $0, flags) }) == CURLUE_OK else {
            curl_url_cleanup(raw)
            return nil
        }
        self.raw = raw
    }

    deinit {
        curl_url_cleanup(raw)
    }
}
