import AFCore
import Foundation

/// Files a test makes in the temporary directory (or hands to AF to make there), removed
/// together: `defer { files.removeAll() }` once, instead of one `defer` per file.
package final class ScratchFiles: Sendable {
    private let urls = Protected<[URL]>([])

    package init() {}

    /// A new path in the temporary directory, `prefix` then a UUID then `suffix`; nothing is
    /// created there.
    package func url(_ prefix: String, suffix: String = "") -> URL {
        track(FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)\(UUID().uuidString)\(suffix)"))
    }

    /// Removes `url` with the others.
    @discardableResult
    package func track(_ url: URL) -> URL {
        urls.withLock { $0.append(url) }
        return url
    }

    package func removeAll() {
        for url in urls.withLock({ urls in defer { urls = [] }; return urls }) {
            try? FileManager.default.removeItem(at: url)
        }
    }
}
