import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every error AF returns, with the reason it failed.
public enum AFError: Error, Sendable {
    /// Why a `MultipartFormData` could not be encoded.
    public enum MultipartEncodingFailureReason: Sendable {
        /// A file part's URL is not a file URL.
        case bodyPartURLInvalid(url: URL)
        /// No file name could be taken from a file part's URL.
        case bodyPartFilenameInvalid(in: URL)
        /// A file part's file cannot be reached.
        case bodyPartFileNotReachable(at: URL)
        /// Checking a file part's file failed with `error`.
        case bodyPartFileNotReachableWithError(atURL: URL, error: any Error)
        /// A file part names a directory.
        case bodyPartFileIsDirectory(at: URL)
        /// A file part's size could not be read.
        case bodyPartFileSizeNotAvailable(at: URL)
        /// Reading a file part's size failed with `error`.
        case bodyPartFileSizeQueryFailedWithError(forURL: URL, error: any Error)
        /// No stream could be opened on a file part's file (or it changed since the form was made).
        case bodyPartInputStreamCreationFailed(for: URL)
        /// The encoded form's file could not be created.
        case outputStreamCreationFailed(for: URL)
        /// The encoded form's file already exists.
        case outputStreamFileAlreadyExists(at: URL)
        /// The encoded form's destination is not a file URL.
        case outputStreamURLInvalid(url: URL)
        /// Writing the encoded form failed with `error`.
        case outputStreamWriteFailed(error: any Error)
        /// Reading a part's stream failed with `error`.
        case inputStreamReadFailed(error: any Error)
    }

    /// A stream that gave fewer or more bytes than it promised.
    public struct UnexpectedInputStreamLength: Error, Sendable {
        /// The bytes the stream promised.
        public var bytesExpected: UInt64
        /// The bytes actually read.
        public var bytesRead: UInt64

        /// A stream that promised `bytesExpected` bytes and gave `bytesRead`.
        public init(bytesExpected: UInt64, bytesRead: UInt64) {
            self.bytesExpected = bytesExpected
            self.bytesRead = bytesRead
        }
    }

    /// Why a server was not trusted.
    public enum ServerTrustFailureReason: Sendable {
        /// What an evaluation saw: the host, the chain, and the detail of the failure.
        public struct Output: Sendable {
            /// The host evaluated.
            public let host: String
            /// The chain the server presented.
            public let trust: ServerTrust
            /// What failed, in OpenSSL's words or the evaluator's.
            public let detail: String

            /// What an evaluation of `trust` for `host` saw.
            public init(host: String, trust: ServerTrust, detail: String) {
                self.host = host
                self.trust = trust
                self.detail = detail
            }
        }

        /// The manager requires every host to be evaluated and has no evaluator for this one.
        case noRequiredEvaluator(host: String)
        /// No certificates were given to pin.
        case noCertificatesFound
        /// No public keys were given to pin.
        case noPublicKeysFound
        /// OpenSSL did not verify the chain against the trusted CAs.
        case defaultEvaluationFailed(output: Output)
        /// The leaf certificate is not valid for the host.
        case hostValidationFailed(output: Output)
        /// A certificate of the chain is revoked, or its status could not be established.
        case revocationCheckFailed(output: Output, options: RevocationCheckOptions)
        /// No certificate of the chain is one of the pinned certificates (DER).
        case certificatePinningFailed(host: String, trust: ServerTrust, pinnedCertificates: [Data], serverCertificates: [Data])
        /// No public key of the chain is one of the pinned keys (DER SubjectPublicKeyInfo).
        case publicKeyPinningFailed(host: String, trust: ServerTrust, pinnedKeys: [Data], serverKeys: [Data])
        /// A custom evaluator threw `error`.
        case customEvaluationFailed(error: any Error)
    }

    /// Why a `ParameterEncoding` failed.
    public enum ParameterEncodingFailureReason: Sendable {
        /// The request has no URL to put parameters in.
        case missingURL
        /// `JSONSerialization` failed with `error`.
        case jsonEncodingFailed(error: any Error)
        /// A custom encoding threw `error`.
        case customEncodingFailed(error: any Error)
    }

    /// Why a `ParameterEncoder` failed.
    public enum ParameterEncoderFailureReason: Sendable {
        /// A component the encoder needs.
        public enum RequiredComponent: Sendable {
            /// The request's URL.
            case url
            /// The request's HTTP method.
            case httpMethod(rawValue: String)
        }

        /// The request lacks a component the encoder needs.
        case missingRequiredComponent(RequiredComponent)
        /// The underlying encoder threw `error`.
        case encoderFailed(error: any Error)
    }

    /// Why response validation failed.
    public enum ResponseValidationFailureReason: Sendable {
        /// A download has no file to validate.
        case dataFileNil
        /// A download's file could not be read for validation.
        case dataFileReadFailed(at: URL)
        /// The response has no `Content-Type`, and only these types are acceptable.
        case missingContentType(acceptableContentTypes: [String])
        /// The response's `Content-Type` is not among the acceptable ones.
        case unacceptableContentType(acceptableContentTypes: [String], responseContentType: String)
        /// The response's status code is not acceptable.
        case unacceptableStatusCode(code: Int)
        /// A validation closure failed with `error`.
        case customValidationFailed(error: any Error)
    }

    /// Why response serialization failed.
    public enum ResponseSerializationFailureReason: Sendable {
        /// The response has no body, and the serializer needs one.
        case inputDataNilOrZeroLength
        /// A download has no file to serialize.
        case inputFileNil
        /// A download's file could not be read.
        case inputFileReadFailed(at: URL)
        /// The body is not text in `encoding`.
        case stringSerializationFailed(encoding: String.Encoding)
        /// `JSONSerialization` could not read the body.
        case jsonSerializationFailed(error: any Error)
        /// The decoder threw `error`.
        case decodingFailed(error: any Error)
        /// A custom serializer threw `error`.
        case customSerializationFailed(error: any Error)
        /// The body is empty and `type` has no empty value.
        case invalidEmptyResponse(type: String)
    }

    /// Why a `URLRequest` failed validation before being sent.
    public enum URLRequestValidationFailureReason: Sendable {
        /// A GET request carries a body.
        case bodyDataInGETRequest(Data)
    }

    /// An upload's body could not be made.
    case createUploadableFailed(error: any Error)
    /// The `URLRequest` could not be built (or was refused before sending).
    case createURLRequestFailed(error: any Error)
    /// A download could not be moved to its destination.
    case downloadedFileMoveFailed(error: any Error, source: URL, destination: URL)
    /// The request was cancelled.
    case explicitlyCancelled
    /// The value could not be made into a URL.
    case invalidURL(url: any URLConvertible)
    /// A multipart form could not be encoded or sent.
    case multipartEncodingFailed(reason: MultipartEncodingFailureReason)
    /// A `ParameterEncoding` failed.
    case parameterEncodingFailed(reason: ParameterEncodingFailureReason)
    /// A `ParameterEncoder` failed.
    case parameterEncoderFailed(reason: ParameterEncoderFailureReason)
    /// A `RequestAdapter` failed.
    case requestAdaptationFailed(error: any Error)
    /// A `RequestRetrier` failed while deciding on `originalError`.
    case requestRetryFailed(retryError: any Error, originalError: any Error)
    /// Validation refused the response.
    case responseValidationFailed(reason: ResponseValidationFailureReason)
    /// The response could not be serialized.
    case responseSerializationFailed(reason: ResponseSerializationFailureReason)
    /// The Session was released while the request ran.
    case sessionDeinitialized
    /// The Session was shut down (or invalidated).
    case sessionInvalidated(error: (any Error)?)
    /// The server was not trusted.
    case serverTrustEvaluationFailed(reason: ServerTrustFailureReason)
    /// The transfer failed (usually a `URLError`).
    case sessionTaskFailed(error: any Error)
    /// The `URLRequest` is invalid.
    case urlRequestValidationFailed(reason: URLRequestValidationFailureReason)
}

extension Error {
    /// `self` as an `AFError`, if it is one.
    public var asAFError: AFError? { self as? AFError }

    /// `self` as an `AFError`; traps with `message` otherwise.
    public func asAFError(orFailWith message: @autoclosure () -> String,
                          file: StaticString = #file, line: UInt = #line) -> AFError {
        guard let afError = self as? AFError else { fatalError(message(), file: file, line: line) }
        return afError
    }

    func asAFError(or defaultAFError: @autoclosure () -> AFError) -> AFError {
        self as? AFError ?? defaultAFError()
    }
}
