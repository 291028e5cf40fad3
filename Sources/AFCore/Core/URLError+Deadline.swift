import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLError {
    /// The `userInfo` key AF sets (to `true`) on the `timedOut` error of a request whose
    /// deadline (`Request.deadline(after:)`) passed.
    public static let deadlineKey = "AFDeadline"

    /// Whether the request ended because its deadline passed, rather than for a slow attempt.
    public var isCausedByDeadline: Bool {
        (userInfo[Self.deadlineKey] as? Bool) == true
    }

    /// The error of a request whose deadline passed.
    static var deadlineExceeded: URLError {
        URLError(.timedOut, userInfo: [NSLocalizedDescriptionKey: "The request's deadline passed.", deadlineKey: true])
    }
}
