import Foundation

/// Alamofire's `SessionDelegate`, kept for source compatibility: AF's engine, not a URLSession
/// delegate, runs the requests. Its `FileManager` moves downloaded files to their destination.
open class SessionDelegate: NSObject, @unchecked Sendable {
    let fileManager: FileManager

    /// A delegate whose `fileManager` moves downloaded files.
    public init(fileManager: FileManager = .default) {
        self.fileManager = fileManager
    }
}
