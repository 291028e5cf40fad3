import Foundation

/// MIME types by file extension, without Apple's UTType: a table of common types first, then
/// the system's `/etc/mime.types`, then `application/octet-stream`.
enum MIMETypes {
    static let fallback = "application/octet-stream"

    static func mimeType(forPathExtension pathExtension: String) -> String {
        let key = pathExtension.lowercased()
        return common[key] ?? system[key] ?? fallback
    }

    static let common: [String: String] = [
        "txt": "text/plain", "text": "text/plain", "log": "text/plain", "md": "text/markdown",
        "csv": "text/csv", "tsv": "text/tab-separated-values", "html": "text/html", "htm": "text/html",
        "css": "text/css", "js": "text/javascript", "mjs": "text/javascript", "xml": "application/xml",
        "json": "application/json", "yaml": "application/yaml", "yml": "application/yaml",
        "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip",
        "tgz": "application/gzip", "tar": "application/x-tar", "bz2": "application/x-bzip2",
        "xz": "application/x-xz", "zst": "application/zstd", "7z": "application/x-7z-compressed",
        "wasm": "application/wasm", "bin": "application/octet-stream",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
        "webp": "image/webp", "svg": "image/svg+xml", "ico": "image/vnd.microsoft.icon",
        "bmp": "image/bmp", "tif": "image/tiff", "tiff": "image/tiff", "heic": "image/heic",
        "avif": "image/avif", "mp3": "audio/mpeg", "wav": "audio/wav", "ogg": "audio/ogg",
        "flac": "audio/flac", "m4a": "audio/mp4", "mp4": "video/mp4", "m4v": "video/mp4",
        "mov": "video/quicktime", "webm": "video/webm", "mkv": "video/x-matroska",
        "avi": "video/x-msvideo", "doc": "application/msword",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls": "application/vnd.ms-excel",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "ppt": "application/vnd.ms-powerpoint",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "odt": "application/vnd.oasis.opendocument.text", "rtf": "application/rtf",
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
    ]

    /// `/etc/mime.types`, read once: lines of `type ext ext ...`, `#` comments.
    static let system: [String: String] = parse((try? String(contentsOfFile: "/etc/mime.types", encoding: .utf8)) ?? "")

    static func parse(_ text: String) -> [String: String] {
        var table: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2, fields[0].contains("/") else { continue }
            for pathExtension in fields.dropFirst() where table[pathExtension.lowercased()] == nil {
                table[pathExtension.lowercased()] = String(fields[0])
            }
        }
        return table
    }
}
