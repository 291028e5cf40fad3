import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DownloadRequest {
    /// Moves the file into `directory` (the user's Documents by default) under the name the
    /// response suggests: `Content-Disposition`'s filename, else the URL's last component.
    /// The name is reduced to a single path component, so a server cannot escape `directory`.
    public static func suggestedDownloadDestination(for directory: FileManager.SearchPathDirectory = .documentDirectory,
                                                    in domain: FileManager.SearchPathDomainMask = .userDomainMask,
                                                    options: Options = []) -> Destination {
        { temporaryURL, response in
            let name = SuggestedFilename.for(response)
            let url = FileManager.default.urls(for: directory, in: domain).first?.appendingPathComponent(name) ?? temporaryURL
            return (url, options)
        }
    }

    /// Where a download goes when no destination is given: the temporary directory, under
    /// the temporary file's name prefixed with `Alamofire_`, as Alamofire does.
    public static let defaultDestination: Destination = { url, _ in
        (defaultDestinationURL(url), [])
    }

    static func defaultDestinationURL(_ url: URL) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("Alamofire_\(url.lastPathComponent)")
    }
}

/// The file name a response suggests, safe to use as one path component.
enum SuggestedFilename {
    static func `for`(_ response: HTTPURLResponse) -> String {
        let disposition = response.value(forHTTPHeaderField: "Content-Disposition").flatMap(fromContentDisposition)
        return sanitized(disposition ?? response.url?.lastPathComponent ?? "")
    }

    /// `filename*` (RFC 6266 / 8187, UTF-8 percent-encoded) wins over `filename`.
    static func fromContentDisposition(_ value: String) -> String? {
        var plain: String?
        var extended: String?
        for parameter in value.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let name = pair[0].trimmingCharacters(in: .whitespaces).lowercased()
            var raw = pair[1].trimmingCharacters(in: .whitespaces)
            if name == "filename*" {
                let parts = raw.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
                if parts.count == 3, parts[0].lowercased() == "utf-8" {
                    extended = String(parts[2]).removingPercentEncoding
                }
            } else if name == "filename" {
                if raw.count >= 2, raw.hasPrefix("\""), raw.hasSuffix("\"") {
                    raw = String(raw.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
                }
                plain = raw
            }
        }
        return extended ?? plain
    }

    /// The last path component of `name` without control characters; never empty, `.` or `..`.
    static func sanitized(_ name: String) -> String {
        let lastComponent = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let cleaned = String(lastComponent.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }.map(Character.init))
            .trimmingCharacters(in: .whitespaces)
        return cleaned.isEmpty || cleaned == "." || cleaned == ".." ? "Unknown" : cleaned
    }
}
