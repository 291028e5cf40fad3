import Foundation

/// Turns one chunk of a streamed body into a value.
public protocol DataStreamSerializer<SerializedObject>: Sendable {
    /// The value produced.
    associatedtype SerializedObject: Sendable

    /// The value for `data`.
    func serialize(_ data: Data) throws -> SerializedObject
}

/// Decodes each chunk as one `T` (preprocessed first).
public struct DecodableStreamSerializer<T: Decodable & Sendable>: DataStreamSerializer {
    /// The decoder.
    public let decoder: any DataDecoder
    /// Applied to each chunk before decoding.
    public let dataPreprocessor: any DataPreprocessor

    /// Creates a serializer.
    public init(decoder: any DataDecoder = JSONDecoder(), dataPreprocessor: any DataPreprocessor = PassthroughPreprocessor()) {
        self.decoder = decoder
        self.dataPreprocessor = dataPreprocessor
    }

    public func serialize(_ data: Data) throws -> T {
        let processed = try dataPreprocessor.preprocess(data)
        do {
            return try decoder.decode(T.self, from: processed)
        } catch {
            throw AFError.responseSerializationFailed(reason: .decodingFailed(error: error))
        }
    }
}

/// Gives each chunk as it is.
public struct PassthroughStreamSerializer: DataStreamSerializer {
    /// A serializer.
    public init() {}
    public func serialize(_ data: Data) throws -> Data { data }
}

/// Gives each chunk as UTF-8 text (invalid bytes replaced).
public struct StringStreamSerializer: DataStreamSerializer {
    /// A serializer.
    public init() {}
    public func serialize(_ data: Data) throws -> String { String(decoding: data, as: UTF8.self) }
}

extension DataStreamSerializer {
    /// A `DecodableStreamSerializer` for `type`.
    public static func decodable<T: Decodable & Sendable>(of type: T.Type, decoder: any DataDecoder = JSONDecoder(),
                                                           dataPreprocessor: any DataPreprocessor = PassthroughPreprocessor()) -> Self
        where Self == DecodableStreamSerializer<T> {
        DecodableStreamSerializer<T>(decoder: decoder, dataPreprocessor: dataPreprocessor)
    }
}

extension DataStreamSerializer where Self == PassthroughStreamSerializer {
    /// A `PassthroughStreamSerializer`.
    public static var passthrough: PassthroughStreamSerializer { PassthroughStreamSerializer() }
}

extension DataStreamSerializer where Self == StringStreamSerializer {
    /// A `StringStreamSerializer`.
    public static var string: StringStreamSerializer { StringStreamSerializer() }
}
