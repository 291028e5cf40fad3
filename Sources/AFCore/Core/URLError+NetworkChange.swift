import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLError {
    /// The `userInfo` key AF sets (to `true`) on an error whose connection was reset because the
    /// host's network changed under it (its address removed, its interface down, its route gone).
    public static let networkChangeKey = "AFNetworkChange"

    /// Whether the connection was lost to a change of the host's network rather than to the
    /// peer: a retry may well succeed at once over the new path.
    public var isCausedByNetworkChange: Bool {
        (userInfo[Self.networkChangeKey] as? Bool) == true
    }
}
