import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Returns the body as a `String`, decoded with the given encoding, the response's charset, or ISO-8859-1.
public final class StringResponseSerializer: ResponseSerializer {
    public let dataPreprocessor: any DataPreprocessor
    /// The encoding forced on every response; `nil` reads the response's charset.
    public let encoding: String.Encoding?
    public let emptyResponseCodes: Set<Int>
    public let emptyRequestMethods: Set<HTTPMethod>

    /// Creates a serializer.
    public init(dataPreprocessor: any DataPreprocessor = StringResponseSerializer.defaultDataPreprocessor,
                encoding: String.Encoding? = nil,
                emptyResponseCodes: Set<Int> = StringResponseSerializer.defaultEmptyResponseCodes,
                emptyRequestMethods: Set<HTTPMethod> = StringResponseSerializer.defaultEmptyRequestMethods) {
        self.dataPreprocessor = dataPreprocessor
        self.encoding = encoding
        self.emptyResponseCodes = emptyResponseCodes
        self.emptyRequestMethods = emptyRequestMethods
    }

    public func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> String {
        guard let data = try bodyToSerialize(request: request, response: response, data: data, error: error) else {
            return ""
        }

        let convertedEncoding = encoding
            ?? response?.textEncodingName.flatMap(String.Encoding.init(ianaCharsetName:))
            ?? .isoLatin1
        guard let string = String(data: data, encoding: convertedEncoding) else {
            throw AFError.responseSerializationFailed(reason: .stringSerializationFailed(encoding: convertedEncoding))
        }
        return string
    }
}

extension ResponseSerializer where Self == StringResponseSerializer {
    /// The default `StringResponseSerializer`.
    public static var string: StringResponseSerializer { StringResponseSerializer() }

    /// A `StringResponseSerializer` with the given rules.
    public static func string(dataPreprocessor: any DataPreprocessor = StringResponseSerializer.defaultDataPreprocessor,
                              encoding: String.Encoding? = nil,
                              emptyResponseCodes: Set<Int> = StringResponseSerializer.defaultEmptyResponseCodes,
                              emptyRequestMethods: Set<HTTPMethod> = StringResponseSerializer.defaultEmptyRequestMethods) -> StringResponseSerializer {
        StringResponseSerializer(dataPreprocessor: dataPreprocessor, encoding: encoding,
                                 emptyResponseCodes: emptyResponseCodes, emptyRequestMethods: emptyRequestMethods)
    }
}

extension String.Encoding {
    /// The encoding for an IANA charset name, for the names responses commonly carry.
    init?(ianaCharsetName name: String) {
        switch name.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) {
        case "utf-8", "utf8": self = .utf8
        case "iso-8859-1", "latin1", "iso_8859-1": self = .isoLatin1
        case "us-ascii", "ascii": self = .ascii
        case "iso-8859-2": self = .isoLatin2
        case "utf-16", "unicode-1-1", "iso-10646-ucs-2": self = .utf16
        case "utf-16le": self = .utf16LittleEndian
        case "utf-16be": self = .utf16BigEndian
        case "utf-32": self = .utf32
        case "utf-32le": self = .utf32LittleEndian
        case "utf-32be": self = .utf32BigEndian
        case "windows-1252", "cp1252": self = .windowsCP1252
        case "shift_jis": self = .shiftJIS
        case "euc-jp": self = .japaneseEUC
        default: return nil
        }
    }
}
