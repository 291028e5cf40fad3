import Foundation

/// Builds a `FormNode` tree from an `Encodable` value.
///
/// Each encoder and container knows the path it writes at; nothing is added to the tree until a
/// value is written, so a container that writes nothing leaves no trace.
struct FormTreeEncoder: Encoder {
    let root: FormNode
    let options: URLEncodedFormEncoder
    let codingPath: [any CodingKey]
    /// Where in the tree this encoder writes; its steps follow `codingPath`.
    let path: [FormPathStep]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: self)
    }

    /// The encoder one step below this one.
    func child(_ step: FormPathStep, key: any CodingKey) -> FormTreeEncoder {
        FormTreeEncoder(root: root, options: options, codingPath: codingPath + [key], path: path + [step])
    }

    func store(_ value: String) {
        root.store(value, at: path[...])
    }

    /// Encodes `value` here, applying the date, data and decimal options.
    func encode(_ value: some Encodable) throws {
        switch value {
        case let date as Date:
            try encodeDate(date)
        case let data as Data:
            try encodeData(data)
        case let decimal as Decimal:
            store("\(decimal)")
        case let url as URL:
            store(url.absoluteString)
        default:
            try value.encode(to: self)
        }
    }

    private func encodeDate(_ date: Date) throws {
        switch options.dateEncoding {
        case .deferredToDate: try date.encode(to: self)
        case .secondsSince1970: store("\(date.timeIntervalSince1970)")
        case .millisecondsSince1970: store("\(date.timeIntervalSince1970 * 1000)")
        case .iso8601: store(ISO8601DateFormatter().string(from: date))
        case let .formatted(formatter): store(formatter.string(from: date))
        case let .custom(closure): store(try closure(date))
        }
    }

    private func encodeData(_ data: Data) throws {
        switch options.dataEncoding {
        case .deferredToData: try data.encode(to: self)
        case .base64: store(data.base64EncodedString())
        case let .custom(closure): store(try closure(data))
        }
    }
}

/// A keyed container; `superEncoder()` writes into the container's own object, as Alamofire's does.
private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: FormTreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func child(_ key: Key) -> FormTreeEncoder {
        encoder.child(.key(key.stringValue), key: key)
    }

    mutating func encodeNil(forKey key: Key) throws {
        guard let value = encoder.options.nilEncoding.encodeNil() else { return }
        child(key).store(value)
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        child(key).store(encoder.options.boolEncoding.encode(value))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try child(key).encode(value)
    }

    // An absent optional is encoded as nil (see `nilEncoding`), whatever its type.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeOrNil(value, forKey: key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeOrNil(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeOrNil(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeOrNil(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeOrNil(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeOrNil(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeOrNil(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeOrNil(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeOrNil(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeOrNil(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeOrNil(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeOrNil(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeOrNil(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeOrNil(value, forKey: key) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        try encodeOrNil(value, forKey: key)
    }

    private mutating func encodeOrNil<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        child(key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        child(key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        encoder
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        child(key)
    }
}

private struct IndexKey: CodingKey {
    var stringValue: String { "\(intValue!)" }
    var intValue: Int?
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

/// An unkeyed container. It counts from the first position of its array, even when another
/// container has already written there; `superEncoder()` writes at the array's own path and
/// takes up a position.
private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: FormTreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    private(set) var count = 0

    init(encoder: FormTreeEncoder) {
        self.encoder = encoder
    }

    private mutating func next() -> FormTreeEncoder {
        defer { count += 1 }
        return encoder.child(.index(count), key: IndexKey(intValue: count))
    }

    mutating func encodeNil() throws {
        guard let value = encoder.options.nilEncoding.encodeNil() else { return }
        next().store(value)
    }

    mutating func encode(_ value: Bool) throws {
        next().store(encoder.options.boolEncoding.encode(value))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try next().encode(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey> {
        next().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        next().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        count += 1
        return encoder
    }
}

/// A single-value container; it takes one value, and a second is an error.
private struct SingleValueContainer: SingleValueEncodingContainer {
    let encoder: FormTreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    private var hasValue = false

    init(encoder: FormTreeEncoder) {
        self.encoder = encoder
    }

    private mutating func claim(for value: Any) throws {
        guard !hasValue else {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: codingPath, debugDescription: "A single value container already holds a value."))
        }
        hasValue = true
    }

    private mutating func store(_ string: String, for value: Any) throws {
        try claim(for: value)
        encoder.store(string)
    }

    mutating func encodeNil() throws {
        // A dropped nil writes nothing.
        guard let value = encoder.options.nilEncoding.encodeNil() else { return }
        try store(value, for: value)
    }

    mutating func encode(_ value: Bool) throws { try store(encoder.options.boolEncoding.encode(value), for: value) }
    mutating func encode(_ value: String) throws { try store(value, for: value) }
    mutating func encode(_ value: Double) throws { try store("\(value)", for: value) }
    mutating func encode(_ value: Float) throws { try store("\(value)", for: value) }
    mutating func encode(_ value: Int) throws { try store("\(value)", for: value) }
    mutating func encode(_ value: Int8) throws { try store("\(value)", for: value) }
    mutating func encode(_ value: Int16) throws { try store("\(value)", for: value) }
    mutating func encode(_ value: Int32) throws { try store("\(value)", for: value) }
    mutating func encode(_ value: Int64) throws { try store("\(value)", for: value) }
    mutating func encode(_ value: UInt) throws { try store("\(value)", for: value) }
    mutating func encode(_ value: UInt8) throws { try store("\(value)", for: value) }
    mutating func encode(_ value: UInt16) throws { try store("\(value)", for: value) }
    mutating func encode(_ value: UInt32) throws { try store("\(value)", for: value) }
    mutating func encode(_ value: UInt64) throws { try store("\(value)", for: value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try claim(for: value)
        try encoder.encode(value)
    }
}
