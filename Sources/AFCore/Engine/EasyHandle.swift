import CCurl
import CCurlShim

/// A curl easy handle with its error buffer; used only by the holder of the engine's lock (see
/// `CurlEngine`).
///
/// Between two plain transfers with the same standing options the handle is not cleared: the
/// next transfer sets only what is its own (URL when it differs, its parsed URL, header lines
/// when they differ, callback context, method). A transfer that sets anything more marks the
/// handle, which is then cleared when it comes back, so nothing it set (a body, credentials,
/// callbacks) outlives it.
final class EasyHandle {
    let raw: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// The header lines `headerList` holds: these, then `headerLast`.
    private var headerLines: [String] = []
    private var headerLast = ""
    /// The URL last set.
    private var url: String?
    /// The standing options set since the last reset; nil when none are, or when a transfer set
    /// more than those.
    private var standing: StandingOptions?
    /// The multi handle running the handle's transfer, while one does.
    var shard: CurlShard?

    init?() {
        guard let raw = curl_easy_init() else { return nil }
        self.raw = raw
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        reset()
    }

    deinit {
        curl_easy_cleanup(raw)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// Clears every option so the handle can serve another transfer; keeps its caches.
    func reset() {
        curl_easy_reset(raw)
        curl_slist_free_all(headerList)
        headerList = nil
        headerLines = []
        url = nil
        standing = nil
        errorBuffer[0] = 0
        set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        set(CURLOPT_NOSIGNAL, 1)
    }

    /// Readies the handle for a transfer with `options`: kept as it is when a plain transfer left
    /// exactly these, else cleared, given the options every transfer shares (`common`), then these.
    func prepare(standing options: StandingOptions, common: (EasyHandle) -> Void) {
        errorBuffer[0] = 0
        // Usually the very same object: the session made it once for all its hops of a scheme
        // (`TaskConfiguration.standingOptions`).
        if let standing, standing == options { return }
        // A handle without standing options is fresh or was cleared when it came back.
        if standing != nil { reset() }
        common(self)
        options.apply(to: self)
        standing = options
    }

    /// Records that the current transfer sets options beyond the standing ones: the handle is
    /// cleared when it comes back (`recycle()`).
    func markSpecial() {
        standing = nil
    }

    /// After a transfer: clears the handle unless only standing options and a plain transfer's
    /// own were set.
    func recycle() {
        // The transfer's parsed URL goes with it (see `ParsedURL`).
        set(CURLOPT_CURLU, pointer: nil)
        if standing == nil { reset() }
    }

    /// Sets `CURLOPT_URL` unless the handle already has this one, and `parsed` (the same URL,
    /// parsed) as `CURLOPT_CURLU` until the transfer ends.
    func setURL(_ value: String, parsed: ParsedURL?) {
        set(CURLOPT_CURLU, pointer: parsed.map { UnsafeMutableRawPointer($0.raw) })
        guard value != url else { return }
        set(CURLOPT_URL, string: value)
        url = value
    }

    /// The text curl wrote for the last failure, if any.
    var errorMessage: String? {
        errorBuffer[0] == 0 ? nil : String(cString: errorBuffer)
    }

    func set(_ option: CURLoption, _ value: Int) {
        afc_easy_setopt_long(raw, option, value)
    }

    func set(_ option: CURLoption, offset value: Int64) {
        afc_easy_setopt_off(raw, option, curl_off_t(value))
    }

    func set(_ option: CURLoption, string value: String) {
        // withCString reads a native string in place; passing `value` directly would copy it.
        value.withCString { _ = afc_easy_setopt_string(raw, option, $0) }
    }

    func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) {
        afc_easy_setopt_pointer(raw, option, value)
    }

    func set(_ option: CURLoption, callback: afc_data_callback) {
        afc_easy_setopt_data_callback(raw, option, callback)
    }

    /// Sets `CURLOPT_HTTPHEADER` to `lines` and `last` unless the handle already sends those;
    /// the list lives until the next reset.
    func setHeaders(_ lines: [String], then last: String) {
        guard headerList == nil || last != headerLast || lines != headerLines else { return }
        curl_slist_free_all(headerList)
        headerList = nil
        for line in lines {
            headerList = line.withCString { curl_slist_append(headerList, $0) }
        }
        headerList = last.withCString { curl_slist_append(headerList, $0) }
        headerLines = lines
        headerLast = last
        afc_easy_setopt_slist(raw, CURLOPT_HTTPHEADER, headerList)
    }

    func info(long info: CURLINFO) -> Int {
        var value = 0
        afc_easy_getinfo_long(raw, info, &value)
        return value
    }

    func info(offset info: CURLINFO) -> Int64 {
        var value: curl_off_t = 0
        afc_easy_getinfo_off(raw, info, &value)
        return Int64(value)
    }

    func info(string info: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>?
        afc_easy_getinfo_string(raw, info, &value)
        return value.map { String(cString: $0) }
    }
}
