import Foundation

/// A fuzz target: one of AF's parsers or encoders, run on one input with its invariants checked.
/// `scripts/fuzz.sh NAME SECONDS` runs one under libFuzzer; the test suite replays each target's
/// corpus (`Fuzz/Corpus/NAME`) and what fuzzing found (`Fuzz/Found/NAME`).
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// Response header lines as curl hands them to the engine.
    case responseHead = "response-head"
    /// `Cache-Control` directives, `Vary` names and HTTP dates.
    case cacheFields = "cache-fields"
    /// The cache's decision for a request given a stored response.
    case cacheDecision = "cache-decision"
    /// `DownloadRequest.resumeData` as AF decodes it.
    case resumeData = "resume-data"
    /// `sha256/<base64>` public-key pins.
    case pin
    /// rtnetlink answers as AFReachability's C parser reads them.
    case netlink
    /// `URLEncodedFormEncoder` output read back.
    case formEncoding = "form-encoding"
    /// `Set-Cookie` values as AF hands them to FoundationNetworking's cookie parser.
    case setCookie = "set-cookie"

    /// Runs the target on `input`; what broke an invariant (empty when nothing did). A crash is
    /// a finding too.
    public func run(_ input: Data) -> [String] {
        switch self {
        case .responseHead: ResponseHeadFuzz.run(input)
        case .cacheFields: CacheFieldsFuzz.run(input)
        case .cacheDecision: CacheDecisionFuzz.run(input)
        case .resumeData: ResumeDataFuzz.run(input)
        case .pin: PinFuzz.run(input)
        case .netlink: NetlinkFuzz.run(input)
        case .formEncoding: FormEncodingFuzz.run(input)
        case .setCookie: SetCookieFuzz.run(input)
        }
    }
}

extension Data {
    /// The input split at `separator` bytes, each piece as a String (invalid UTF-8 repaired).
    func fuzzStrings(separatedBy separator: UInt8) -> [String] {
        split(separator: separator, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }
}
