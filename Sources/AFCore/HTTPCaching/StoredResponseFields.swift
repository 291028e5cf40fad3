import Foundation

/// What the cache rules read from a stored response's header fields, parsed once when its entry
/// is made or its fields change, not on every lookup: a fresh hit then reads no header text.
struct StoredResponseFields: Sendable {
    /// What the response's `Expires` says.
    enum Expiry: Sendable {
        case absent
        /// Present but not a date: the response is already stale (RFC 9111 §5.3).
        case invalid
        case at(Date)
    }

    let control: CacheControl
    /// The `Date` field, nil when absent or not a date.
    let date: Date?
    /// The `Age` field in seconds, 0 when absent or not a number.
    let ageValue: TimeInterval
    let expires: Expiry
    /// The `Last-Modified` field, nil when absent or not a date.
    let lastModified: Date?
    /// The lower-cased field names `Vary` lists.
    let varyNames: [String]
    /// The served response's fields without its `Age`, which goes last (the status is set when
    /// served); nil when a stored `Age` holds a place among the fields (the head is then built
    /// for each answer).
    let headWithoutAge: ResponseHead?

    init(_ headers: HTTPHeaders) {
        control = CacheControl(headers.value(for: "Cache-Control"))
        date = headers.value(for: "Date").flatMap(HTTPDate.parse)
        let age = headers.value(for: "Age")
        ageValue = age.flatMap { TimeInterval($0.trimmingASCIISpaces()) } ?? 0
        expires = headers.value(for: "Expires").map { HTTPDate.parse($0).map(Expiry.at) ?? .invalid } ?? .absent
        lastModified = headers.value(for: "Last-Modified").flatMap(HTTPDate.parse)
        varyNames = CacheLookup.varyNames(headers)
        if age == nil {
            var head = ResponseHead(statusCode: 0, httpVersion: "HTTP/1.1", headers: [])
            // Held as long as the entry: only the room its fields take.
            head.reserveCapacity(fields: headers.count, bytes: headers.fieldBytes)
            for header in headers { head.append(name: header.name, value: header.value) }
            headWithoutAge = head
        } else {
            headWithoutAge = nil
        }
    }
}
