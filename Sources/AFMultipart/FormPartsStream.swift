import AFCore
import Foundation

/// A large form as the `InputStream` an upload reports in `UploadRequest.uploadable`: reading it
/// gives the encoded form. AF's engine does not read the stream: it sends the same segments
/// straight from memory and from the parts' files (`UploadSegmentsProviding`), and can send them
/// again for a retry or a 307/308 redirect.
final class FormPartsStream: InputStream, UploadSegmentsProviding {
    let uploadSegments: UploadSegments
    private let lock = NSLock()
    private var reader: SegmentedUploadReader?
    private var status: Stream.Status = .notOpen
    private var failure: (any Error)?

    init(_ segments: UploadSegments) {
        uploadSegments = segments
        super.init(data: Data())
    }

    override func open() {
        lock.withLock {
            guard status == .notOpen else { return }
            reader = SegmentedUploadReader(uploadSegments)
            status = .open
        }
    }

    override func close() {
        lock.withLock {
            reader = nil
            status = .closed
        }
    }

    override var streamStatus: Stream.Status { lock.withLock { status } }
    override var streamError: (any Error)? { lock.withLock { failure } }
    override var hasBytesAvailable: Bool { lock.withLock { status == .open } }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        lock.withLock {
            guard status == .open, let reader else { return status == .atEnd ? 0 : -1 }
            let count = reader.read(into: buffer, count: length)
            if count == 0 { status = .atEnd }
            if count < 0 {
                status = .error
                failure = reader.failure
            }
            return count
        }
    }

    override func getBuffer(_ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length len: UnsafeMutablePointer<Int>) -> Bool {
        false
    }
}
