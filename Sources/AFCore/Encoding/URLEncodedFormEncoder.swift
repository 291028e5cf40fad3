import Foundation

/// Encodes `Encodable` values as `application/x-www-form-urlencoded` strings.
///
/// The root value must be keyed (a struct or a dictionary). Nested values become `key[sub]`
/// (see `keyPathEncoding`), arrays follow `arrayEncoding`.
public final class URLEncodedFormEncoder: @unchecked Sendable {
    /// How array keys are written.
    public enum ArrayEncoding: Sendable {
        /// `key[]=value`.
        case brackets
        /// `key=value`.
        case noBrackets
        /// `key[index]=value`.
        case indexInBrackets
        /// A key made by the closure from the key and the index.
        case custom(@Sendable (_ key: String, _ index: Int) -> String)

        func encode(_ key: String, atIndex index: Int) -> String {
            switch self {
            case .brackets: "\(key)[]"
            case .noBrackets: key
            case .indexInBrackets: "\(key)[\(index)]"
            case let .custom(encoding): encoding(key, index)
            }
        }
    }

    /// How booleans are written.
    public enum BoolEncoding: Sendable {
        /// `1` and `0`.
        case numeric
        /// `true` and `false`.
        case literal

        func encode(_ value: Bool) -> String {
            switch self {
            case .numeric: value ? "1" : "0"
            case .literal: value ? "true" : "false"
            }
        }
    }

    /// How `Data` values are written.
    public enum DataEncoding: Sendable {
        /// `Data`'s own `Encodable` form (an array of bytes).
        case deferredToData
        /// Base64.
        case base64
        /// A string made by the closure.
        case custom(@Sendable (Data) throws -> String)
    }

    /// How `Date` values are written.
    public enum DateEncoding: @unchecked Sendable {
        /// `Date`'s own `Encodable` form.
        case deferredToDate
        /// Seconds since 1970 as a number.
        case secondsSince1970
        /// Milliseconds since 1970 as a number.
        case millisecondsSince1970
        /// ISO 8601 with internet date-time format.
        case iso8601
        /// A string from the `DateFormatter`.
        case formatted(DateFormatter)
        /// A string made by the closure.
        case custom(@Sendable (Date) throws -> String)
    }

    /// How keys are transformed.
    public enum KeyEncoding: Sendable {
        /// Keys as they are.
        case useDefaultKeys
        /// `oneTwo` → `one_two`.
        case convertToSnakeCase
        /// `oneTwo` → `one-two`.
        case convertToKebabCase
        /// First letter upper-cased.
        case capitalized
        /// All upper-cased.
        case uppercased
        /// All lower-cased.
        case lowercased
        /// A key made by the closure.
        case custom(@Sendable (String) -> String)

        func encode(_ key: String) -> String {
            switch self {
            case .useDefaultKeys: key
            case .convertToSnakeCase: key.splitAtCaseChanges(separator: "_")
            case .convertToKebabCase: key.splitAtCaseChanges(separator: "-")
            case .capitalized: key.prefix(1).uppercased() + key.dropFirst()
            case .uppercased: key.uppercased()
            case .lowercased: key.lowercased()
            case let .custom(encoding): encoding(key)
            }
        }
    }

    /// How a nested key is appended to its parent key.
    public struct KeyPathEncoding: Sendable {
        /// `parent[sub]`.
        public static let brackets = KeyPathEncoding { "[\($0)]" }
        /// `parent.sub`.
        public static let dots = KeyPathEncoding { ".\($0)" }

        private let encoding: @Sendable (_ subkey: String) -> String

        /// Creates an encoding from a closure that writes the part appended for `subkey`.
        public init(encoding: @escaping @Sendable (_ subkey: String) -> String) {
            self.encoding = encoding
        }

        func encodeKeyPath(_ keyPath: String, subkey: String) -> String {
            keyPath + encoding(subkey)
        }
    }

    /// How `nil` values are written.
    public struct NilEncoding: Sendable {
        /// The key is left out.
        public static let dropKey = NilEncoding { nil }
        /// `key=`.
        public static let dropValue = NilEncoding { "" }
        /// `key=null`.
        public static let null = NilEncoding { "null" }

        private let encoding: @Sendable () -> String?

        /// Creates an encoding from a closure giving the value written, or `nil` to drop the key.
        public init(encoding: @escaping @Sendable () -> String?) {
            self.encoding = encoding
        }

        func encodeNil() -> String? { encoding() }
    }

    /// How spaces are written.
    public enum SpaceEncoding: Sendable {
        /// `%20`.
        case percentEscaped
        /// `+`.
        case plusReplaced

        func encode(_ string: String) -> String {
            switch self {
            case .percentEscaped: string.replacingOccurrences(of: " ", with: "%20")
            case .plusReplaced: string.replacingOccurrences(of: " ", with: "+")
            }
        }
    }

    /// Errors of `URLEncodedFormEncoder`.
    public enum Error: Swift.Error, Sendable {
        /// The root value was not keyed; the string names what it was.
        case invalidRootObject(String)

        var localizedDescription: String {
            switch self {
            case let .invalidRootObject(object):
                "URLEncodedFormEncoder requires keyed root object. Received \(object) instead."
            }
        }
    }

    /// Whether the `key=value` pairs are sorted, as escaped text; the pairs of a nested value
    /// stay together and sort among their siblings.
    public let alphabetizeKeyValuePairs: Bool
    /// How array keys are written.
    public let arrayEncoding: ArrayEncoding
    /// How booleans are written.
    public let boolEncoding: BoolEncoding
    /// How `Data` values are written.
    public let dataEncoding: DataEncoding
    /// How `Date` values are written.
    public let dateEncoding: DateEncoding
    /// How keys are transformed.
    public let keyEncoding: KeyEncoding
    /// How nested keys are written.
    public let keyPathEncoding: KeyPathEncoding
    /// How `nil` values are written.
    public let nilEncoding: NilEncoding
    /// How spaces are written.
    public let spaceEncoding: SpaceEncoding
    /// The characters left unescaped.
    public var allowedCharacters: CharacterSet

    /// Creates an encoder.
    public init(alphabetizeKeyValuePairs: Bool = true,
                arrayEncoding: ArrayEncoding = .brackets,
                boolEncoding: BoolEncoding = .numeric,
                dataEncoding: DataEncoding = .base64,
                dateEncoding: DateEncoding = .deferredToDate,
                keyEncoding: KeyEncoding = .useDefaultKeys,
                keyPathEncoding: KeyPathEncoding = .brackets,
                nilEncoding: NilEncoding = .dropKey,
                spaceEncoding: SpaceEncoding = .percentEscaped,
                allowedCharacters: CharacterSet = .afURLQueryAllowed) {
        self.alphabetizeKeyValuePairs = alphabetizeKeyValuePairs
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
        self.dataEncoding = dataEncoding
        self.dateEncoding = dateEncoding
        self.keyEncoding = keyEncoding
        self.keyPathEncoding = keyPathEncoding
        self.nilEncoding = nilEncoding
        self.spaceEncoding = spaceEncoding
        self.allowedCharacters = allowedCharacters
    }

    /// Encodes `value` into a form string; a value that writes nothing gives an empty string.
    public func encode(_ value: any Encodable) throws -> String {
        let root = FormNode()
        try value.encode(to: FormTreeEncoder(root: root, options: self, codingPath: [], path: []))
        guard root.shape == .object || root.shape == .empty else {
            throw Error.invalidRootObject(root.shape.name)
        }
        return FormSerializer(options: self).serialize(root)
    }

    /// Encodes `value` into form data (UTF-8).
    public func encode(_ value: any Encodable) throws -> Data {
        let string: String = try encode(value)
        return Data(string.utf8)
    }
}

extension String {
    func splitAtCaseChanges(separator: String) -> String {
        var result = ""
        var previousWasLowercaseOrDigit = false
        for character in self {
            if character.isUppercase, previousWasLowercaseOrDigit {
                result += separator
            }
            previousWasLowercaseOrDigit = character.isLowercase || character.isNumber
            result += character.lowercased()
        }
        return result
    }
}
