import Foundation

/// `count` bytes, byte i being `byte(i)`, for a `byte` that repeats every `period` bytes within
/// each run of `segment` bytes (a multiple of `period`; the whole by default): the first period of
/// each run is computed, the rest copied. A closure call per byte costs seconds for megabytes in a
/// debug build, tens of seconds under the sanitizers, and holds one of the few threads every test
/// shares meanwhile (other tests then run past their time limits).
package func patternBytes(_ count: Int, period: Int = 256, segment: Int? = nil, _ byte: (Int) -> UInt8) -> Data {
    precondition(period > 0 && (segment ?? period) % period == 0, "a segment is a whole number of periods")
    let segment = segment ?? max(count, 1)
    var data = Data(capacity: count)
    var start = 0
    while start < count {
        let length = min(segment, count - start)
        var run = Data(count: min(period, length))
        run.withUnsafeMutableBytes { raw in
            for index in 0..<raw.count { raw[index] = byte(start + index) }
        }
        while run.count < length { run.append(run.prefix(min(run.count, length - run.count))) }
        data.append(run)
        start += length
    }
    return data
}
