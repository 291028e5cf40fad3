import Dispatch

extension DispatchTime {
    /// Seconds from this time to now. Used to time a serializer: reading the clock this way
    /// touches no shared object (`ProcessInfo.processInfo` is one reference counted by every
    /// thread that reads it).
    var secondsUntilNow: Double {
        let now = DispatchTime.now().uptimeNanoseconds
        return Double(now - min(uptimeNanoseconds, now)) / 1e9
    }
}
