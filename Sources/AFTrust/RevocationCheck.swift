import Foundation

/// The revocation status of one certificate, from what its issuer published and what was fetched.
struct RevocationCheck {
    enum Method {
        case crl, ocsp
    }

    enum Status {
        case good
        case revoked(String)
        /// No method answered: why not, and what to fetch so one can.
        case undecided(reasons: [String], fetches: Set<RevocationFetch>)
    }

    let certificate: Data
    let issuer: Data
    /// The OCSP answer the server stapled, for the leaf.
    let staple: Data?
    let cache: RevocationCache

    /// The first definite answer of `methods`, in order; else why none answered.
    func status(methods: [Method]) -> Status {
        var reasons: [String] = []
        var fetches = Set<RevocationFetch>()
        for method in methods {
            let sources = method == .crl ? crlSources() : ocspSources()
            if sources.isEmpty {
                reasons.append(method == .crl ? "it names no CRL distribution point" : "it names no OCSP responder")
            }
            for source in sources {
                switch source() {
                case let .answered(.good(nextUpdate), fetch, data):
                    if let fetch, let data, let nextUpdate { cache.keep(fetch, answer: data, until: nextUpdate) }
                    return .good
                case let .answered(.revoked(detail), _, _):
                    return .revoked("\(detail) (\(method == .crl ? "CRL" : "OCSP"))")
                case let .answered(.unusable(detail), _, _):
                    reasons.append(detail)
                case let .missing(fetch):
                    reasons.append("\(fetch.url) not asked yet")
                    fetches.insert(fetch)
                case let .failed(url, detail):
                    reasons.append("\(url): \(detail)")
                }
            }
        }
        return .undecided(reasons: reasons, fetches: fetches)
    }

    private enum SourceResult {
        /// An answer, with where it came from (nil: stapled) so a current one can be kept.
        case answered(RevocationAnswer, RevocationFetch?, Data?)
        case missing(RevocationFetch)
        case failed(url: String, String)
    }

    private func crlSources() -> [() -> SourceResult] {
        RevocationSources.crlURLs(of: certificate).map { url in
            {
                lookUp(RevocationFetch(url: url, ocspRequest: nil), label: "CRL") {
                    RevocationSources.crlAnswer($0, certificate: certificate, issuer: issuer)
                }
            }
        }
    }

    private func ocspSources() -> [() -> SourceResult] {
        var sources: [() -> SourceResult] = []
        if let staple {
            sources.append {
                switch RevocationSources.ocspAnswer(staple, certificate: certificate, issuer: issuer) {
                case let .unusable(detail): .answered(.unusable("stapled OCSP answer: \(detail)"), nil, nil)
                case let answer: .answered(answer, nil, nil)
                }
            }
        }
        let urls = RevocationSources.ocspURLs(of: certificate)
        guard !urls.isEmpty, let request = RevocationSources.ocspRequest(certificate: certificate, issuer: issuer) else {
            return sources
        }
        return sources + urls.map { url in
            {
                lookUp(RevocationFetch(url: url, ocspRequest: request), label: "OCSP") {
                    RevocationSources.ocspAnswer($0, certificate: certificate, issuer: issuer)
                }
            }
        }
    }

    private func lookUp(_ fetch: RevocationFetch, label: String, read: (Data) -> RevocationAnswer) -> SourceResult {
        switch cache.take(fetch) {
        case nil:
            return .missing(fetch)
        case let .failed(detail):
            return .failed(url: fetch.url, "\(label) unreachable: \(detail)")
        case let .answer(data):
            switch read(data) {
            case let .unusable(detail): return .answered(.unusable("\(label) from \(fetch.url): \(detail)"), fetch, data)
            case let answer: return .answered(answer, fetch, data)
            }
        }
    }
}
