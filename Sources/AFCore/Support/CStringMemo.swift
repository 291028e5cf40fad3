#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The String of the last C string it was given, made again only when the bytes differ: an
/// easy handle reports the same addresses transfer after transfer, and a String made from a C
/// string costs a scan and a check of its bytes each time.
struct CStringMemo {
    private var bytes: [CChar] = []
    private var string: String?

    /// The String of `cString`; nil for nil.
    mutating func string(for cString: UnsafePointer<CChar>?) -> String? {
        guard let cString else { return nil }
        let length = strlen(cString)
        if let string, bytes.count == length,
           length == 0 || bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, cString, length) == 0 }) {
            return string
        }
        bytes = Array(UnsafeBufferPointer(start: cString, count: length))
        let made = String(cString: cString)
        string = made
        return made
    }
}
