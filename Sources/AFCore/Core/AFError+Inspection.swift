import Foundation

extension AFError {
    /// Whether this is `.createUploadableFailed`.
    public var isCreateUploadableError: Bool { if case .createUploadableFailed = self { true } else { false } }
    /// Whether this is `.createURLRequestFailed`.
    public var isCreateURLRequestError: Bool { if case .createURLRequestFailed = self { true } else { false } }
    /// Whether this is `.downloadedFileMoveFailed`.
    public var isDownloadedFileMoveError: Bool { if case .downloadedFileMoveFailed = self { true } else { false } }
    /// Whether this is `.explicitlyCancelled`.
    public var isExplicitlyCancelledError: Bool { if case .explicitlyCancelled = self { true } else { false } }
    /// Whether this is `.invalidURL`.
    public var isInvalidURLError: Bool { if case .invalidURL = self { true } else { false } }
    /// Whether this is `.multipartEncodingFailed`.
    public var isMultipartEncodingError: Bool { if case .multipartEncodingFailed = self { true } else { false } }
    /// Whether this is `.parameterEncodingFailed`.
    public var isParameterEncodingError: Bool { if case .parameterEncodingFailed = self { true } else { false } }
    /// Whether this is `.parameterEncoderFailed`.
    public var isParameterEncoderError: Bool { if case .parameterEncoderFailed = self { true } else { false } }
    /// Whether this is `.requestAdaptationFailed`.
    public var isRequestAdaptationError: Bool { if case .requestAdaptationFailed = self { true } else { false } }
    /// Whether this is `.requestRetryFailed`.
    public var isRequestRetryError: Bool { if case .requestRetryFailed = self { true } else { false } }
    /// Whether this is `.responseValidationFailed`.
    public var isResponseValidationError: Bool { if case .responseValidationFailed = self { true } else { false } }
    /// Whether this is `.responseSerializationFailed`.
    public var isResponseSerializationError: Bool { if case .responseSerializationFailed = self { true } else { false } }
    /// Whether this is `.sessionDeinitialized`.
    public var isSessionDeinitializedError: Bool { if case .sessionDeinitialized = self { true } else { false } }
    /// Whether this is `.sessionInvalidated`.
    public var isSessionInvalidatedError: Bool { if case .sessionInvalidated = self { true } else { false } }
    /// Whether this is `.serverTrustEvaluationFailed`.
    public var isServerTrustEvaluationError: Bool { if case .serverTrustEvaluationFailed = self { true } else { false } }
    /// Whether this is `.sessionTaskFailed`.
    public var isSessionTaskError: Bool { if case .sessionTaskFailed = self { true } else { false } }
    /// Whether this is `.urlRequestValidationFailed`.
    public var isURLRequestValidationError: Bool { if case .urlRequestValidationFailed = self { true } else { false } }

    /// The `URLConvertible` of an `.invalidURL` error.
    public var urlConvertible: (any URLConvertible)? {
        guard case let .invalidURL(url) = self else { return nil }
        return url
    }

    /// The `URL` of an `.invalidURL` error, or the source of a failed multipart part.
    public var url: URL? {
        switch self {
        case let .invalidURL(url): try? url.asURL()
        case let .multipartEncodingFailed(reason): reason.url
        default: nil
        }
    }

    /// The error behind this one, where there is one.
    public var underlyingError: (any Error)? {
        switch self {
        case let .multipartEncodingFailed(reason): reason.underlyingError
        case let .parameterEncodingFailed(reason): reason.underlyingError
        case let .parameterEncoderFailed(reason): reason.underlyingError
        case let .responseValidationFailed(reason): reason.underlyingError
        case let .responseSerializationFailed(reason): reason.underlyingError
        case let .createUploadableFailed(error), let .createURLRequestFailed(error),
             let .requestAdaptationFailed(error), let .sessionTaskFailed(error):
            error
        case let .downloadedFileMoveFailed(error, _, _): error
        case let .requestRetryFailed(retryError, _): retryError
        case let .sessionInvalidated(error): error
        case let .serverTrustEvaluationFailed(.customEvaluationFailed(error)): error
        case .explicitlyCancelled, .invalidURL, .sessionDeinitialized, .urlRequestValidationFailed,
             .serverTrustEvaluationFailed: nil
        }
    }

    /// The content types validation accepted, for a content-type validation failure.
    public var acceptableContentTypes: [String]? {
        guard case let .responseValidationFailed(reason) = self else { return nil }
        switch reason {
        case let .missingContentType(types), let .unacceptableContentType(types, _): return types
        default: return nil
        }
    }

    /// The response's content type, for a content-type validation failure.
    public var responseContentType: String? {
        guard case let .responseValidationFailed(.unacceptableContentType(_, type)) = self else { return nil }
        return type
    }

    /// The status code, for a status-code validation failure.
    public var responseCode: Int? {
        guard case let .responseValidationFailed(.unacceptableStatusCode(code)) = self else { return nil }
        return code
    }

    /// The encoding, for a string serialization failure.
    public var failedStringEncoding: String.Encoding? {
        guard case let .responseSerializationFailed(.stringSerializationFailed(encoding)) = self else { return nil }
        return encoding
    }

    /// The source of a failed file move.
    public var sourceURL: URL? {
        guard case let .downloadedFileMoveFailed(_, source, _) = self else { return nil }
        return source
    }

    /// The destination of a failed file move.
    public var destinationURL: URL? {
        guard case let .downloadedFileMoveFailed(_, _, destination) = self else { return nil }
        return destination
    }
}

extension AFError.MultipartEncodingFailureReason {
    var url: URL? {
        switch self {
        case let .bodyPartURLInvalid(url), let .bodyPartFilenameInvalid(url), let .bodyPartFileNotReachable(url),
             let .bodyPartFileIsDirectory(url), let .bodyPartFileSizeNotAvailable(url),
             let .bodyPartInputStreamCreationFailed(url), let .outputStreamCreationFailed(url),
             let .outputStreamFileAlreadyExists(url), let .outputStreamURLInvalid(url),
             let .bodyPartFileNotReachableWithError(url, _), let .bodyPartFileSizeQueryFailedWithError(url, _):
            url
        case .outputStreamWriteFailed, .inputStreamReadFailed:
            nil
        }
    }

    var underlyingError: (any Error)? {
        switch self {
        case let .bodyPartFileNotReachableWithError(_, error), let .bodyPartFileSizeQueryFailedWithError(_, error),
             let .outputStreamWriteFailed(error), let .inputStreamReadFailed(error):
            error
        default:
            nil
        }
    }
}

extension AFError.ParameterEncodingFailureReason {
    var underlyingError: (any Error)? {
        switch self {
        case let .jsonEncodingFailed(error), let .customEncodingFailed(error): error
        case .missingURL: nil
        }
    }
}

extension AFError.ParameterEncoderFailureReason {
    var underlyingError: (any Error)? {
        switch self {
        case let .encoderFailed(error): error
        case .missingRequiredComponent: nil
        }
    }
}

extension AFError.ResponseValidationFailureReason {
    var underlyingError: (any Error)? {
        switch self {
        case let .customValidationFailed(error): error
        default: nil
        }
    }
}

extension AFError.ResponseSerializationFailureReason {
    var underlyingError: (any Error)? {
        switch self {
        case let .jsonSerializationFailed(error), let .decodingFailed(error), let .customSerializationFailed(error):
            error
        default:
            nil
        }
    }
}
