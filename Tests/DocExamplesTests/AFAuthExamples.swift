import AFAuth

// Sources/AFAuth/AFAuth.docc/AFAuth.md
func afAuthExample(stateDirectory: URL, tokenURL: URL, secret: String) async throws {
    let store = CredentialStore<OAuth2Credential>(fileURL: stateDirectory.appendingPathComponent("credential.json"))
    let authenticator = OAuth2Authenticator(tokenEndpoint: tokenURL, clientID: "daemon", clientSecret: secret,
                                            didRefresh: { try? store.save($0) },        // every new credential
                                            didReject: { _ in try? store.remove() })   // one refused for good
    let interceptor = AuthenticationInterceptor(authenticator: authenticator, credential: try store.load())
    let session = Session(interceptor: interceptor)

    // Sent with `Authorization: Bearer …`, once there is a token.
    let profile = try await session.request("https://api.example.com/v1/me").validate().serializingData().value
    print(profile.count)
}
