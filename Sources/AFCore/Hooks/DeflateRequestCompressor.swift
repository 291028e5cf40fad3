import CCurlShim
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Compresses request bodies held in memory with deflate (a zlib stream) and sets
/// `Content-Encoding: deflate`. Streams and files are sent as they are.
public struct DeflateRequestCompressor: Sendable, RequestInterceptor {
    /// What to do with a request that already has a `Content-Encoding`.
    public enum DuplicateHeaderBehavior: Sendable {
        /// Fail the request with `DuplicateHeaderError`.
        case error
        /// Compress it and replace the header.
        case replace
        /// Send it uncompressed.
        case skip
    }

    /// The request already had a `Content-Encoding`.
    public struct DuplicateHeaderError: Error {}

    /// What to do with a request that already has a `Content-Encoding`.
    public let duplicateHeaderBehavior: DuplicateHeaderBehavior
    /// Whether a body is worth compressing.
    public let shouldCompressBodyData: @Sendable (_ bodyData: Data) -> Bool

    /// Creates a compressor; by default every body is compressed and an existing
    /// `Content-Encoding` is an error.
    public init(duplicateHeaderBehavior: DuplicateHeaderBehavior = .error,
                shouldCompressBodyData: @escaping @Sendable (_ bodyData: Data) -> Bool = { _ in true }) {
        self.duplicateHeaderBehavior = duplicateHeaderBehavior
        self.shouldCompressBodyData = shouldCompressBodyData
    }

    public func adapt(_ urlRequest: URLRequest, for session: Session,
                      completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void) {
        guard let body = urlRequest.httpBody, shouldCompressBodyData(body) else { return completion(.success(urlRequest)) }
        if urlRequest.headers.value(for: "Content-Encoding") != nil {
            switch duplicateHeaderBehavior {
            case .error: return completion(.failure(DuplicateHeaderError()))
            case .skip: return completion(.success(urlRequest))
            case .replace: break
            }
        }
        guard let compressed = Self.deflate(body) else {
            return completion(.failure(AFError.parameterEncodingFailed(reason: .customEncodingFailed(
                error: URLError(.cannotDecodeRawData)))))
        }
        var request = urlRequest
        request.httpBody = compressed
        request.headers.update(.contentEncoding("deflate"))
        completion(.success(request))
    }

    /// `data` as a zlib stream (RFC 1950), what HTTP's `deflate` coding means.
    static func deflate(_ data: Data) -> Data? {
        var output = Data(count: afc_zlib_bound(data.count))
        var length = output.count
        let done = output.withUnsafeMutableBytes { out in
            data.withUnsafeBytes { input in
                afc_zlib_compress(input.bindMemory(to: UInt8.self).baseAddress, data.count,
                                  out.bindMemory(to: UInt8.self).baseAddress, &length)
            }
        }
        guard done == 1 else { return nil }
        output.count = length
        return output
    }
}

extension RequestInterceptor where Self == DeflateRequestCompressor {
    /// A `DeflateRequestCompressor` with the default behaviour.
    public static var deflateCompressor: DeflateRequestCompressor { DeflateRequestCompressor() }

    /// A `DeflateRequestCompressor` with the given behaviour.
    public static func deflateCompressor(
        duplicateHeaderBehavior: DeflateRequestCompressor.DuplicateHeaderBehavior = .error,
        shouldCompressBodyData: @escaping @Sendable (_ bodyData: Data) -> Bool = { _ in true }
    ) -> DeflateRequestCompressor {
        DeflateRequestCompressor(duplicateHeaderBehavior: duplicateHeaderBehavior, shouldCompressBodyData: shouldCompressBodyData)
    }
}
