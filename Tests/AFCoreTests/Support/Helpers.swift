import AFTestSupport
@testable import AFCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Session {
    /// Whether every request the session made has been cleaned up.
    var hasNoActiveRequests: Bool { activeRequests.value.isEmpty }
}

extension AFError {
    /// The `URLError` code behind a task failure.
    var urlErrorCode: URLError.Code? { (underlyingError as? URLError)?.code }
}

