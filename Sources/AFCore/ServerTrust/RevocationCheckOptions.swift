/// How AFTrust's `RevocationTrustEvaluator` checks revocation (its `Options`).
public struct RevocationCheckOptions: OptionSet, Sendable {
    public let rawValue: UInt

    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Certificate revocation lists, from each certificate's distribution points.
    public static let crl = RevocationCheckOptions(rawValue: 1 << 0)
    /// OCSP: the server's stapled answer, else the certificate's responder.
    public static let ocsp = RevocationCheckOptions(rawValue: 1 << 1)
    /// Ask CRLs first, then OCSP (by default OCSP comes first).
    public static let preferCRL = RevocationCheckOptions(rawValue: 1 << 2)
    /// Fail unless every certificate gets a positive answer.
    public static let requirePositiveResponse = RevocationCheckOptions(rawValue: 1 << 3)
    /// Use only stapled answers and what was fetched before; fetch nothing.
    public static let networkAccessDisabled = RevocationCheckOptions(rawValue: 1 << 4)
    /// CRLs and OCSP.
    public static let any: RevocationCheckOptions = [.crl, .ocsp]
}
