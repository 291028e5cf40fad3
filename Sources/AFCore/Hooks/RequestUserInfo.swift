import Foundation

/// The `userInfo` of the notifications about a request: one dictionary per thread, refilled in
/// place for each notification, so posting one allocates no dictionary.
///
/// Copy-on-write keeps it correct: an observer that keeps a notification keeps its dictionary,
/// and the thread's next fill then copies rather than changing it; a notification posted from
/// inside an observer's call (on the same thread) finds the dictionary held by the one being
/// posted, and fills a copy too. After each call it holds `()`, not the last request.
final class RequestUserInfo {
    // Only its thread touches it (`perThread`), and no access spans a call out: `holding` and
    // `clear` return before any observer runs, and the value they overwrite is `()` or a request
    // still held by its caller, so no deinit runs inside them. No dynamic check is needed.
    @exclusivity(unchecked) private var userInfo: [AnyHashable: Any] = [String.requestKey: ()]

    private static let perThread = ThreadOwned { RequestUserInfo() }

    /// Calls `body` with a `userInfo` holding `request` under the request key.
    static func with<Result>(_ request: Request, _ body: ([AnyHashable: Any]) -> Result) -> Result {
        let box = perThread.current
        defer { box.clear() }
        return body(box.holding(request))
    }

    /// Calls `body` with each of `items` and a `userInfo` holding its request: a run of posts
    /// clears the dictionary once, after the last.
    static func forEach<Items: Sequence>(_ items: Items, request: (Items.Element) -> Request,
                                         _ body: (Items.Element, [AnyHashable: Any]) -> Void) {
        let box = perThread.current
        defer { box.clear() }
        for item in items { body(item, box.holding(request(item))) }
    }

    /// The dictionary, holding `request`. Through the entry's index: the key is not hashed again.
    private func holding(_ request: Request) -> [AnyHashable: Any] {
        userInfo.values[userInfo.startIndex] = request
        return userInfo
    }

    private func clear() {
        userInfo.values[userInfo.startIndex] = ()
    }
}
