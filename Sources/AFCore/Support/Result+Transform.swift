import Foundation

// The throwing transforms behind the responses' `tryMap` and `tryMapError`: the error thrown
// becomes the new failure.
extension Result {
    func tryMap<NewSuccess>(_ transform: (Success) throws -> NewSuccess) -> Result<NewSuccess, any Error> {
        switch self {
        case let .success(value): Result<NewSuccess, any Error> { try transform(value) }
        case let .failure(error): .failure(error)
        }
    }

    func tryMapError<NewFailure: Error>(_ transform: (Failure) throws -> NewFailure) -> Result<Success, any Error> {
        switch self {
        case let .success(value): .success(value)
        case let .failure(error): .failure((Result<NewFailure, any Error> { try transform(error) }).fold())
        }
    }

    init(value: Success, error: Failure?) {
        if let error { self = .failure(error) } else { self = .success(value) }
    }
}

extension Result where Success: Error {
    fileprivate func fold() -> any Error {
        switch self {
        case let .success(error): error
        case let .failure(error): error
        }
    }
}
