import Dispatch

extension DispatchTime {
    /// Seconds from this time to now; 0 for a time still to come. Reading the clock this way
    /// touches no shared object (`ProcessInfo.processInfo` is one object whose reference count
    /// every thread that reads it changes).
    var secondsUntilNow: Double {
        let now = DispatchTime.now().uptimeNanoseconds
        return Double(now - min(uptimeNanoseconds, now)) / 1e9
    }
}
