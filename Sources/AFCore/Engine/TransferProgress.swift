import Foundation

/// Byte counts of one exchange, as curl reports them (0 when unknown).
struct TransferProgress: Sendable, Equatable {
    var bytesSent: Int64 = 0
    var bytesExpectedToSend: Int64 = 0
    var bytesReceived: Int64 = 0
    var bytesExpectedToReceive: Int64 = 0

    /// The counts of an exchange that continues a download from `offset`: received bytes count
    /// from the start of the file. A total past `Int64.max` (a server's Content-Length may be
    /// anything up to it) reads as unknown (0), a count past it as `Int64.max`.
    func resumed(at offset: Int64) -> TransferProgress {
        var resumed = self
        let (received, receivedOverflow) = bytesReceived.addingReportingOverflow(offset)
        resumed.bytesReceived = receivedOverflow ? .max : received
        if bytesExpectedToReceive > 0 {
            let (expected, overflow) = bytesExpectedToReceive.addingReportingOverflow(offset)
            resumed.bytesExpectedToReceive = overflow ? 0 : expected
        }
        return resumed
    }
}
