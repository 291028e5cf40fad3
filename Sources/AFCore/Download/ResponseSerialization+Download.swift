import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns a download's outcome (its file) into a value.
public protocol DownloadResponseSerializerProtocol<SerializedObject>: Sendable {
    /// The value produced.
    associatedtype SerializedObject: Sendable

    /// The value for this outcome, or the error that explains why there is none.
    func serializeDownload(request: URLRequest?, response: HTTPURLResponse?, fileURL: URL?, error: (any Error)?) throws -> SerializedObject
}

extension DownloadResponseSerializerProtocol where Self: DataResponseSerializerProtocol {
    /// Reads the file and serializes its bytes as the data serializer does.
    public func serializeDownload(request: URLRequest?, response: HTTPURLResponse?, fileURL: URL?, error: (any Error)?) throws -> SerializedObject {
        if let error { throw error }
        guard let fileURL else { throw AFError.responseSerializationFailed(reason: .inputFileNil) }
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch {
            throw AFError.responseSerializationFailed(reason: .inputFileReadFailed(at: fileURL))
        }
        return try serialize(request: request, response: response, data: data, error: nil)
    }
}

/// Gives the downloaded file's URL.
public struct URLResponseSerializer: DownloadResponseSerializerProtocol {
    /// A serializer.
    public init() {}

    public func serializeDownload(request: URLRequest?, response: HTTPURLResponse?, fileURL: URL?, error: (any Error)?) throws -> URL {
        if let error { throw error }
        guard let fileURL else { throw AFError.responseSerializationFailed(reason: .inputFileNil) }
        return fileURL
    }
}

extension DownloadResponseSerializerProtocol where Self == URLResponseSerializer {
    /// A `URLResponseSerializer`.
    public static var url: URLResponseSerializer { URLResponseSerializer() }
}
