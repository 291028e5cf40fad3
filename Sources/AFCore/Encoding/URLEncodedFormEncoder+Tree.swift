import Foundation

/// One node of the tree an `Encodable` value is first encoded into.
final class FormNode {
    enum Kind {
        case unset
        case string(String)
        case array([FormNode])
        case object([(String, FormNode)])

        var name: String {
            switch self {
            case .unset: "nothing"
            case .string: "a single value"
            case .array: "an array"
            case .object: "an object"
            }
        }
    }

    var kind: Kind = .unset

    func appendChild() -> FormNode {
        let child = FormNode()
        if case var .array(items) = kind {
            items.append(child)
            kind = .array(items)
        } else {
            kind = .array([child])
        }
        return child
    }

    func setChild(_ child: FormNode, forKey key: String) {
        var pairs: [(String, FormNode)] = []
        if case let .object(existing) = kind { pairs = existing }
        if let index = pairs.firstIndex(where: { $0.0 == key }) {
            pairs[index].1 = child
        } else {
            pairs.append((key, child))
        }
        kind = .object(pairs)
    }
}

/// Builds a `FormNode` tree from an `Encodable` value.
struct FormTreeEncoder: Encoder {
    let node: FormNode
    let options: URLEncodedFormEncoder
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .unset = node.kind { node.kind = .object([]) }
        return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .unset = node.kind { node.kind = .array([]) }
        return UnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: self)
    }

    /// Encodes `value` into `target`, applying the date, data and bool options.
    func encode(_ value: some Encodable, into target: FormNode, key: (any CodingKey)?) throws {
        let path = key.map { codingPath + [$0] } ?? codingPath
        let child = FormTreeEncoder(node: target, options: options, codingPath: path)
        switch value {
        case let date as Date:
            try child.encodeDate(date)
        case let data as Data:
            try child.encodeData(data)
        case let decimal as Decimal:
            target.kind = .string("\(decimal)")
        case let url as URL:
            target.kind = .string(url.absoluteString)
        default:
            try value.encode(to: child)
        }
    }

    private func encodeDate(_ date: Date) throws {
        switch options.dateEncoding {
        case .deferredToDate: try date.encode(to: self)
        case .secondsSince1970: node.kind = .string("\(date.timeIntervalSince1970)")
        case .millisecondsSince1970: node.kind = .string("\(date.timeIntervalSince1970 * 1000)")
        case .iso8601: node.kind = .string(ISO8601DateFormatter().string(from: date))
        case let .formatted(formatter): node.kind = .string(formatter.string(from: date))
        case let .custom(closure): node.kind = .string(try closure(date))
        }
    }

    private func encodeData(_ data: Data) throws {
        switch options.dataEncoding {
        case .deferredToData: try data.encode(to: self)
        case .base64: node.kind = .string(data.base64EncodedString())
        case let .custom(closure): node.kind = .string(try closure(data))
        }
    }

}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: FormTreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func childNode(for key: Key) -> FormNode {
        childNode(named: key.stringValue)
    }

    private func childNode(named name: String) -> FormNode {
        let child = FormNode()
        encoder.node.setChild(child, forKey: encoder.options.keyEncoding.encode(name))
        return child
    }

    mutating func encodeNil(forKey key: Key) throws {
        guard let value = encoder.options.nilEncoding.encodeNil() else { return }
        childNode(for: key).kind = .string(value)
    }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        childNode(for: key).kind = .string(encoder.options.boolEncoding.encode(value))
    }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }

    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.encode(value, into: childNode(for: key), key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        FormTreeEncoder(node: childNode(for: key), options: encoder.options, codingPath: codingPath + [key])
            .container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        FormTreeEncoder(node: childNode(for: key), options: encoder.options, codingPath: codingPath + [key])
            .unkeyedContainer()
    }

    /// The encoder of a superclass's fields, under the key "super" (which the container's own
    /// key type need not have: a synthesized `CodingKeys` has no such case).
    mutating func superEncoder() -> any Encoder {
        FormTreeEncoder(node: childNode(named: "super"), options: encoder.options, codingPath: codingPath + [SuperKey()])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        FormTreeEncoder(node: childNode(for: key), options: encoder.options, codingPath: codingPath + [key])
    }
}

/// The key a superclass's fields go under.
private struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}

private struct IndexKey: CodingKey {
    var stringValue: String { "\(intValue!)" }
    var intValue: Int?
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: FormTreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    private(set) var count = 0

    init(encoder: FormTreeEncoder) {
        self.encoder = encoder
    }

    private mutating func nextNode() -> (FormNode, IndexKey) {
        defer { count += 1 }
        return (encoder.node.appendChild(), IndexKey(intValue: count))
    }

    mutating func encodeNil() throws {
        let value = encoder.options.nilEncoding.encodeNil()
        guard let value else { return }
        nextNode().0.kind = .string(value)
    }

    mutating func encode(_ value: Bool) throws {
        nextNode().0.kind = .string(encoder.options.boolEncoding.encode(value))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let (node, key) = nextNode()
        try encoder.encode(value, into: node, key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey> {
        let (node, key) = nextNode()
        return FormTreeEncoder(node: node, options: encoder.options, codingPath: codingPath + [key])
            .container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let (node, key) = nextNode()
        return FormTreeEncoder(node: node, options: encoder.options, codingPath: codingPath + [key])
            .unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let (node, key) = nextNode()
        return FormTreeEncoder(node: node, options: encoder.options, codingPath: codingPath + [key])
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let encoder: FormTreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws {
        // A dropped nil leaves the node unset, which serialization skips.
        encoder.node.kind = encoder.options.nilEncoding.encodeNil().map(FormNode.Kind.string) ?? .unset
    }

    mutating func encode(_ value: Bool) throws {
        encoder.node.kind = .string(encoder.options.boolEncoding.encode(value))
    }

    mutating func encode(_ value: String) throws { encoder.node.kind = .string(value) }
    mutating func encode(_ value: Double) throws { encoder.node.kind = .string("\(value)") }
    mutating func encode(_ value: Float) throws { encoder.node.kind = .string("\(value)") }
    mutating func encode(_ value: Int) throws { encoder.node.kind = .string("\(value)") }
    mutating func encode(_ value: Int8) throws { encoder.node.kind = .string("\(value)") }
    mutating func encode(_ value: Int16) throws { encoder.node.kind = .string("\(value)") }
    mutating func encode(_ value: Int32) throws { encoder.node.kind = .string("\(value)") }
    mutating func encode(_ value: Int64) throws { encoder.node.kind = .string("\(value)") }
    mutating func encode(_ value: UInt) throws { encoder.node.kind = .string("\(value)") }
    mutating func encode(_ value: UInt8) throws { encoder.node.kind = .string("\(value)") }
    mutating func encode(_ value: UInt16) throws { encoder.node.kind = .string("\(value)") }
    mutating func encode(_ value: UInt32) throws { encoder.node.kind = .string("\(value)") }
    mutating func encode(_ value: UInt64) throws { encoder.node.kind = .string("\(value)") }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try encoder.encode(value, into: encoder.node, key: nil)
    }
}

/// Turns a `FormNode` tree into `key=value` pairs joined by `&`.
struct FormSerializer {
    let options: URLEncodedFormEncoder

    mutating func serialize(_ pairs: [(String, FormNode)]) -> String {
        var output: [(key: String, value: String)] = []
        for (key, node) in pairs {
            append(node, forKey: key, to: &output)
        }
        if options.alphabetizeKeyValuePairs {
            output = output.enumerated()
                .sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }
                .map(\.element)
        }
        return output.map { "\(escape($0.key))=\(escape($0.value))" }.joined(separator: "&")
    }

    private func append(_ node: FormNode, forKey key: String, to output: inout [(key: String, value: String)]) {
        switch node.kind {
        case .unset:
            break
        case let .string(value):
            output.append((key, value))
        case let .array(items):
            for (index, item) in items.enumerated() {
                append(item, forKey: options.arrayEncoding.encode(key, atIndex: index), to: &output)
            }
        case let .object(pairs):
            for (subkey, child) in pairs {
                append(child, forKey: options.keyPathEncoding.encodeKeyPath(key, subkey: subkey), to: &output)
            }
        }
    }

    private func escape(_ string: String) -> String {
        var allowed = options.allowedCharacters
        allowed.insert(" ")
        let escaped = string.addingPercentEncoding(withAllowedCharacters: allowed) ?? string
        return options.spaceEncoding.encode(escaped)
    }
}
