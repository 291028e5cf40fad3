import CCurl
import CCurlShim

/// A curl easy handle with its error buffer; used only on the engine thread.
final class EasyHandle {
    let raw: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var headerList: UnsafeMutablePointer<curl_slist>?

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
        errorBuffer[0] = 0
        set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        set(CURLOPT_NOSIGNAL, 1)
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
        afc_easy_setopt_string(raw, option, value)
    }

    func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) {
        afc_easy_setopt_pointer(raw, option, value)
    }

    func set(_ option: CURLoption, callback: afc_data_callback) {
        afc_easy_setopt_data_callback(raw, option, callback)
    }

    /// Sets `CURLOPT_HTTPHEADER`; the list lives until the next reset.
    func setHeaders(_ lines: [String]) {
        curl_slist_free_all(headerList)
        headerList = nil
        for line in lines {
            headerList = curl_slist_append(headerList, line)
        }
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
