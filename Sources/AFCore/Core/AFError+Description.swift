import Foundation

extension AFError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case let .createUploadableFailed(error):
            "Uploadable creation failed with error: \(error.localizedDescription)"
        case let .createURLRequestFailed(error):
            "URLRequest creation failed with error: \(error.localizedDescription)"
        case let .downloadedFileMoveFailed(error, source, destination):
            "Moving downloaded file from: \(source) to: \(destination) failed with error: \(error.localizedDescription)"
        case .explicitlyCancelled:
            "Request explicitly cancelled."
        case let .invalidURL(url):
            "URL is not valid: \(url)"
        case let .multipartEncodingFailed(reason):
            reason.localizedDescription
        case let .parameterEncodingFailed(reason):
            reason.localizedDescription
        case let .parameterEncoderFailed(reason):
            reason.localizedDescription
        case let .requestAdaptationFailed(error):
            "Request adaption failed with error: \(error.localizedDescription)"
        case let .requestRetryFailed(retryError, originalError):
            "Request retry failed with retry error: \(retryError.localizedDescription), original error: \(originalError.localizedDescription)"
        case let .responseValidationFailed(reason):
            reason.localizedDescription
        case let .responseSerializationFailed(reason):
            reason.localizedDescription
        case .sessionDeinitialized:
            "Session was invalidated without error, so it was likely deinitialized unexpectedly. Be sure to retain a reference to your Session for the duration of your requests."
        case let .sessionInvalidated(error):
            "Session was invalidated with error: \(error?.localizedDescription ?? "No description.")"
        case let .serverTrustEvaluationFailed(reason):
            "Server trust evaluation failed due to reason: \(reason.localizedDescription)"
        case let .sessionTaskFailed(error):
            "URLSessionTask failed with error: \(error.localizedDescription)"
        case let .urlRequestValidationFailed(reason):
            "URLRequest validation failed due to reason: \(reason.localizedDescription)"
        }
    }
}

extension AFError.ParameterEncodingFailureReason {
    var localizedDescription: String {
        switch self {
        case .missingURL:
            "URL request to encode was missing a URL"
        case let .jsonEncodingFailed(error):
            "JSON could not be encoded because of error:\n\(error.localizedDescription)"
        case let .customEncodingFailed(error):
            "Custom parameter encoder failed with error: \(error.localizedDescription)"
        }
    }
}

extension AFError.ParameterEncoderFailureReason {
    var localizedDescription: String {
        switch self {
        case let .missingRequiredComponent(component):
            "Encoding failed due to a missing request component: \(component)"
        case let .encoderFailed(error):
            "The underlying encoder failed with the error: \(error)"
        }
    }
}

extension AFError.MultipartEncodingFailureReason {
    var localizedDescription: String {
        switch self {
        case let .bodyPartURLInvalid(url):
            "The URL provided is not a file URL: \(url)"
        case let .bodyPartFilenameInvalid(url):
            "The URL provided does not have a valid filename: \(url)"
        case let .bodyPartFileNotReachable(url):
            "The URL provided is not reachable: \(url)"
        case let .bodyPartFileNotReachableWithError(url, error):
            "The system returned an error while checking the provided URL for reachability.\nURL: \(url)\nError: \(error)"
        case let .bodyPartFileIsDirectory(url):
            "The URL provided is a directory: \(url)"
        case let .bodyPartFileSizeNotAvailable(url):
            "Could not fetch the file size from the provided URL: \(url)"
        case let .bodyPartFileSizeQueryFailedWithError(url, error):
            "The system returned an error while attempting to fetch the file size from the provided URL.\nURL: \(url)\nError: \(error)"
        case let .bodyPartInputStreamCreationFailed(url):
            "Failed to create an InputStream for the provided URL: \(url)"
        case let .outputStreamCreationFailed(url):
            "Failed to create an OutputStream for URL: \(url)"
        case let .outputStreamFileAlreadyExists(url):
            "A file already exists at the provided URL: \(url)"
        case let .outputStreamURLInvalid(url):
            "The provided OutputStream URL is invalid: \(url)"
        case let .outputStreamWriteFailed(error):
            "OutputStream write failed with error: \(error)"
        case let .inputStreamReadFailed(error):
            "InputStream read failed with error: \(error)"
        }
    }
}

extension AFError.ResponseSerializationFailureReason {
    var localizedDescription: String {
        switch self {
        case .inputDataNilOrZeroLength:
            "Response could not be serialized, input data was nil or zero length."
        case .inputFileNil:
            "Response could not be serialized, input file was nil."
        case let .inputFileReadFailed(url):
            "Response could not be serialized, input file could not be read: \(url)."
        case let .stringSerializationFailed(encoding):
            "String could not be serialized with encoding: \(encoding)."
        case let .jsonSerializationFailed(error):
            "JSON could not be serialized because of error:\n\(error.localizedDescription)"
        case let .invalidEmptyResponse(type):
            "Empty response could not be serialized to type: \(type). Use Empty as the expected type for such responses."
        case let .decodingFailed(error):
            "Response could not be decoded because of error:\n\(error.localizedDescription)"
        case let .customSerializationFailed(error):
            "Custom response serializer failed with error:\n\(error.localizedDescription)"
        }
    }
}

extension AFError.ResponseValidationFailureReason {
    var localizedDescription: String {
        switch self {
        case .dataFileNil:
            "Response could not be validated, data file was nil."
        case let .dataFileReadFailed(url):
            "Response could not be validated, data file could not be read: \(url)."
        case let .missingContentType(types):
            "Response Content-Type was missing and acceptable content types (\(types.joined(separator: ","))) do not match \"*/*\"."
        case let .unacceptableContentType(acceptableTypes, responseType):
            "Response Content-Type \"\(responseType)\" does not match any acceptable types: \(acceptableTypes.joined(separator: ","))."
        case let .unacceptableStatusCode(code):
            "Response status code was unacceptable: \(code)."
        case let .customValidationFailed(error):
            "Custom response validation failed with error: \(error.localizedDescription)"
        }
    }
}

extension AFError.URLRequestValidationFailureReason {
    var localizedDescription: String {
        switch self {
        case let .bodyDataInGETRequest(data):
            "Invalid URLRequest: Requests with GET method cannot have body data:\n\(String(decoding: data, as: UTF8.self))"
        }
    }
}

extension AFError.ServerTrustFailureReason {
    var localizedDescription: String {
        switch self {
        case let .noRequiredEvaluator(host):
            "A ServerTrustEvaluating value is required for host \(host) but none was found."
        case .noCertificatesFound:
            "No certificates were found or provided for evaluation."
        case .noPublicKeysFound:
            "No public keys were found or provided for evaluation."
        case let .defaultEvaluationFailed(output):
            "Default evaluation failed for host \(output.host): \(output.detail)"
        case let .hostValidationFailed(output):
            "Host validation failed for host \(output.host): \(output.detail)"
        case let .revocationCheckFailed(output, _):
            "Revocation check failed for host \(output.host): \(output.detail)"
        case let .certificatePinningFailed(host, _, _, _):
            "Certificate pinning failed for host \(host)."
        case let .publicKeyPinningFailed(host, _, _, _):
            "Public key pinning failed for host \(host)."
        case let .customEvaluationFailed(error):
            "Custom trust evaluation failed with error: \(error.localizedDescription)"
        }
    }
}
