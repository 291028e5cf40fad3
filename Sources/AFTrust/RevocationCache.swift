import AFCore
import Foundation

/// What was fetched from one CRL distribution point or OCSP responder for one certificate.
struct RevocationFetch: Hashable, Sendable {
    /// The URL, and for OCSP the DER request POSTed to it.
    var url: String
    var ocspRequest: Data?
}

/// The answers a revocation evaluator fetched, until they are used.
///
/// An answer that proved current until a date (a CRL's or OCSP answer's nextUpdate) is kept until
/// then. Any other answer, and every failure to fetch, serves one evaluation per fetch: the next
/// connection asks again, so a certificate revoked meanwhile is caught.
final class RevocationCache: Sendable {
    enum Entry: Sendable {
        case answer(Data)
        case failed(String)
    }

    private struct Stored {
        var entry: Entry
        /// Kept until then; nil: used up after `uses` evaluations.
        var validUntil: Date?
        var uses: Int
    }

    private let stored = Protected<[RevocationFetch: Stored]>([:])
    /// How long one fetch may take, and how large an answer may be.
    static let timeout: TimeInterval = 5
    static let maximumSize = 16 << 20

    /// The entry for `fetch`, counting one use; nil when it must be fetched.
    func take(_ fetch: RevocationFetch, now: Date = Date()) -> Entry? {
        stored.withLock { stored in
            guard var item = stored[fetch] else { return nil }
            if let validUntil = item.validUntil {
                if validUntil > now { return item.entry }
                stored[fetch] = nil
                return nil
            }
            item.uses -= 1
            stored[fetch] = item.uses > 0 ? item : nil
            return item.entry
        }
    }

    /// Keeps the answer of `fetch` until `date`: it proved current until then.
    func keep(_ fetch: RevocationFetch, answer: Data, until date: Date) {
        stored.withLock { $0[fetch] = Stored(entry: .answer(answer), validUntil: date, uses: 0) }
    }

    /// Fetches each of `fetches` (blocking; never on the engine thread) and stores the outcome
    /// for one more evaluation.
    func fetch(_ fetches: Set<RevocationFetch>) {
        for fetch in fetches {
            let result = RevocationSources.fetch(
                fetch.url, body: fetch.ocspRequest,
                contentType: fetch.ocspRequest == nil ? nil : "application/ocsp-request",
                timeout: Self.timeout, maximumSize: Self.maximumSize)
            let entry: Entry
            switch result {
            case let .success(data): entry = .answer(data)
            case let .failure(error): entry = .failed(error.reason)
            }
            stored.withLock { stored in
                let uses = stored[fetch].map { $0.validUntil == nil ? $0.uses : 0 } ?? 0
                stored[fetch] = Stored(entry: entry, validUntil: nil, uses: uses + 1)
            }
        }
    }
}
