import AFTrust

// Sources/AFCore/AFCore.docc/TrustAndPinning.md
func trustAndPinningExample(caURL: URL) throws {
    let manager = ServerTrustManager(evaluators: [
        "api.example.com": PublicKeysTrustEvaluator(keys: [PublicKey(pin: "sha256/...")!]),
        "internal.example": PinnedCertificatesTrustEvaluator(certificates: try Certificate.certificates(at: caURL)),
    ])
    let session = Session(serverTrustManager: manager)
    _ = session
}
