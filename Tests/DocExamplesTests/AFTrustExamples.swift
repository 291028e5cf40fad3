import AFTrust

// Sources/AFTrust/AFTrust.docc/AFTrust.md
func afTrustExample(pins: [String]) async throws {
    let internalCA = try Certificate.certificates(at: URL(fileURLWithPath: "/etc/my-daemon/internal-ca.pem"))
    let manager = ServerTrustManager(evaluators: [
        // The system's CAs, and one key of the chain among `pins` ("sha256/<base64>").
        "api.example.com": PublicKeysTrustEvaluator(keys: pins.compactMap(PublicKey.init(pin:))),
        // A private CA, trusted as an anchor for this host only.
        "registry.internal": PinnedCertificatesTrustEvaluator(certificates: internalCA, acceptSelfSignedCertificates: true),
        // No certificate of the chain revoked, by OCSP, with an answer required.
        "payments.example.com": RevocationTrustEvaluator(options: [.ocsp, .requirePositiveResponse]),
    ])
    let session = Session(serverTrustManager: manager)   // any other host is refused

    let response = await session.request("https://api.example.com/v1/status").serializingData().response
    if case let .serverTrustEvaluationFailed(reason)? = response.error {
        print("not trusted: \(reason)")
    }
}
