import AFCore

// Alamofire's shorthands for the evaluators, for a `ServerTrustManager`'s dictionary:
// `["api.example.com": .pinnedCertificates(), "cdn.example.com": .revocationChecking()]`.

extension ServerTrustEvaluating where Self == RevocationTrustEvaluator {
    /// A `RevocationTrustEvaluator` with the default settings.
    public static var revocationChecking: RevocationTrustEvaluator { RevocationTrustEvaluator() }

    /// A `RevocationTrustEvaluator` with the given settings.
    public static func revocationChecking(performDefaultValidation: Bool = true, validateHost: Bool = true,
                                          options: RevocationTrustEvaluator.Options = .any) -> RevocationTrustEvaluator {
        RevocationTrustEvaluator(performDefaultValidation: performDefaultValidation, validateHost: validateHost, options: options)
    }
}

extension ServerTrustEvaluating where Self == PinnedCertificatesTrustEvaluator {
    /// A `PinnedCertificatesTrustEvaluator` pinning the main bundle's certificates.
    public static var pinnedCertificates: PinnedCertificatesTrustEvaluator { PinnedCertificatesTrustEvaluator() }

    /// A `PinnedCertificatesTrustEvaluator` with the given settings.
    public static func pinnedCertificates(certificates: [Certificate] = Bundle.main.af.certificates,
                                          acceptSelfSignedCertificates: Bool = false,
                                          performDefaultValidation: Bool = true,
                                          validateHost: Bool = true) -> PinnedCertificatesTrustEvaluator {
        PinnedCertificatesTrustEvaluator(certificates: certificates, acceptSelfSignedCertificates: acceptSelfSignedCertificates,
                                         performDefaultValidation: performDefaultValidation, validateHost: validateHost)
    }
}

extension ServerTrustEvaluating where Self == PublicKeysTrustEvaluator {
    /// A `PublicKeysTrustEvaluator` pinning the main bundle's certificates' keys.
    public static var publicKeys: PublicKeysTrustEvaluator { PublicKeysTrustEvaluator() }

    /// A `PublicKeysTrustEvaluator` with the given settings.
    public static func publicKeys(keys: [PublicKey] = Bundle.main.af.publicKeys, performDefaultValidation: Bool = true,
                                  validateHost: Bool = true) -> PublicKeysTrustEvaluator {
        PublicKeysTrustEvaluator(keys: keys, performDefaultValidation: performDefaultValidation, validateHost: validateHost)
    }
}

extension ServerTrustEvaluating where Self == CompositeTrustEvaluator {
    /// A `CompositeTrustEvaluator` that requires every one of `evaluators`.
    public static func composite(evaluators: [any ServerTrustEvaluating]) -> CompositeTrustEvaluator {
        CompositeTrustEvaluator(evaluators: evaluators)
    }
}

extension ServerTrustEvaluating where Self == DisabledTrustEvaluator {
    /// A `DisabledTrustEvaluator`: every server is trusted. For tests against local servers only.
    public static var disabled: DisabledTrustEvaluator { DisabledTrustEvaluator() }
}
