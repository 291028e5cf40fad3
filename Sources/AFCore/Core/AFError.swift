import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every error AF returns, with the reason it failed.
public enum AFError: Error, Sendable {
    /// Why a `MultipartFormData` could not be encoded.
    public enum MultipartEncodingFailureReason: Sendable {
        case bodyPartURLInvalid(url: URL)
        case bodyPartFilenameInvalid(in: URL)
        case bodyPartFileNotReachable(at: URL)
        case bodyPartFileNotReachableWithError(atURL: URL, error: any Error)
        case bodyPartFileIsDirectory(at: URL)
        case bodyPartFileSizeNotAvailable(at: URL)
        case bodyPartFileSizeQueryFailedWithError(forURL: URL, error: any Error)
        case bodyPartInputStreamCreationFailed(for: URL)
        case outputStreamCreationFailed(for: URL)
        case outputStreamFileAlreadyExists(at: URL)
        case outputStreamURLInvalid(url: URL)
        case outputStreamWriteFailed(error: any Error)
        case inputStreamReadFailed(error: any Error)
    }

    /// A stream that gave fewer or more bytes than it promised.
    public struct UnexpectedInputStreamLength: Error, Sendable {
        /// The bytes the stream promised.
        public var bytesExpected: UInt64
        /// The bytes actually read.
        public var bytesRead: UInt64

        public init(bytesExpected: UInt64, bytesRead: UInt64) {
            self.bytesExpected = bytesExpected
            self.bytesRead = bytesRead
        }
    }

    /// Why a server was not trusted.
    public enum ServerTrustFailureReason: Sendable {
        /// What an evaluation saw: the host, the chain, and the detail of the failure.
        public struct Output: Sendable {
            public let host: String
            public let trust: ServerTrust
            public let detail: String

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
        case missingURL
        case jsonEncodingFailed(error: any Error)
        case customEncodingFailed(error: any Error)
    }

    /// Why a `ParameterEncoder` failed.
    public enum ParameterEncoderFailureReason: Sendable {
        /// A component the encoder needs.
        public enum RequiredComponent: Sendable {
            case url
            case httpMethod(rawValue: String)
        }

        case missingRequiredComponent(RequiredComponent)
        case encoderFailed(error: any Error)
    }

    /// Why response validation failed.
    public enum ResponseValidationFailureReason: Sendable {
        case dataFileNil
        case dataFileReadFailed(at: URL)
        case missingContentType(acceptableContentTypes: [String])
        case unacceptableContentType(acceptableContentTypes: [String], responseContentType: String)
        case unacceptableStatusCode(code: Int)
        case customValidationFailed(error: any Error)
    }

    /// Why response serialization failed.
    public enum ResponseSerializationFailureReason: Sendable {
        case inputDataNilOrZeroLength
        case inputFileNil
        case inputFileReadFailed(at: URL)
        case stringSerializationFailed(encoding: String.Encoding)
        case jsonSerializationFailed(error: any Error)
        case decodingFailed(error: any Error)
        case customSerializationFailed(error: any Error)
        case invalidEmptyResponse(type: String)
    }

    /// Why a `URLRequest` failed validation before being sent.
    public enum URLRequestValidationFailureReason: Sendable {
        case bodyDataInGETRequest(Data)
    }

    case createUploadableFailed(error: any Error)
    case createURLRequestFailed(error: any Error)
    case downloadedFileMoveFailed(error: any Error, source: URL, destination: URL)
    case explicitlyCancelled
    case invalidURL(url: any URLConvertible)
    case multipartEncodingFailed(reason: MultipartEncodingFailureReason)
    case parameterEncodingFailed(reason: ParameterEncodingFailureReason)
    case parameterEncoderFailed(reason: ParameterEncoderFailureReason)
    case requestAdaptationFailed(error: any Error)
    case requestRetryFailed(retryError: any Error, originalError: any Error)
    case responseValidationFailed(reason: ResponseValidationFailureReason)
    case responseSerializationFailed(reason: ResponseSerializationFailureReason)
    case sessionDeinitialized
    case sessionInvalidated(error: (any Error)?)
    case serverTrustEvaluationFailed(reason: ServerTrustFailureReason)
    case sessionTaskFailed(error: any Error)
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
