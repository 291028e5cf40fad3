import Foundation

/// The `userInfo` of the notifications about a request: one dictionary per thread, refilled in
/// place for each notification, so posting one allocates no dictionary.
///
/// Copy-on-write keeps it correct: an observer that keeps a notification keeps its dictionary,
/// and the thread's next fill then copies rather than changing it; a notification posted from
/// inside an observer's call (on the same thread) finds the dictionary held by the one being
/// posted, and fills a copy too. Between notifications it holds `()`, not the last request.
final class RequestUserInfo {
    private var userInfo: [AnyHashable: Any] = [String.requestKey: ()]

    private static let perThread = ThreadOwned { RequestUserInfo() }

    /// Calls `body` with a `userInfo` holding `request` under the request key.
    static func with<Result>(_ request: Request, _ body: ([AnyHashable: Any]) -> Result) -> Result {
        let box = perThread.current
        // Through the entry's index: the key is not hashed again.
        box.userInfo.values[box.userInfo.startIndex] = request
        defer { box.userInfo.values[box.userInfo.startIndex] = () }
        return body(box.userInfo)
    }
}
