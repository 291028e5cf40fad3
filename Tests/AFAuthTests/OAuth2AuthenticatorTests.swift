import AFAuth
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The token endpoint side of OAuth2Authenticator: grants, expiry, errors, the persistence hook.
@Suite(.timeLimit(.minutes(1))) struct OAuth2AuthenticatorTests {
    private func refresh(_ authenticator: OAuth2Authenticator,
                         _ credential: OAuth2Credential) async -> Result<OAuth2Credential, any Error> {
        let session = makeSession()
        defer { withExtendedLifetime(session) {} }
        return await withCheckedContinuation { continuation in
            authenticator.refresh(credential, for: session) { continuation.resume(returning: $0) }
        }
    }

    private func oauthError(_ result: Result<OAuth2Credential, any Error>) -> OAuth2Error? {
        guard case let .failure(error as OAuth2Error) = result else { return nil }
        return error
    }

    @Test func theRefreshTokenGrantGivesAnExpiringCredentialAndCallsTheHook() async throws {
        let client = uniqueKey()
        let saved = Protected<[OAuth2Credential]>([])
        let authenticator = OAuth2Authenticator(tokenEndpoint: OAuthServer.token, clientID: client, clientSecret: "secret",
                                                tokenSession: makeSession(), didRefresh: { credential in
                                                    saved.withLock { $0.append(credential) }
                                                })
        let before = Date()
        let credential = try await refresh(authenticator, OAuth2Credential(accessToken: "old", refreshToken: "rt-0")).get()
        #expect(credential.accessToken == "at-\(client)-1" && credential.refreshToken == "rt-\(client)-1")
        let expiration = try #require(credential.expiration)
        #expect(expiration >= before.addingTimeInterval(3600) && expiration <= Date().addingTimeInterval(3600))
        #expect(!credential.requiresRefresh)
        #expect(saved.value == [credential])
        // Codable: a daemon keeps it on disk.
        let decoded = try JSONDecoder().decode(OAuth2Credential.self, from: JSONEncoder().encode(credential))
        #expect(decoded == credential)
    }

    @Test func clientCredentialsWithTheBodyOrBasicAndAWrongSecret() async throws {
        let client = uniqueKey()
        for authentication in [OAuth2Authenticator.ClientAuthentication.basic, .body] {
            let authenticator = OAuth2Authenticator(tokenEndpoint: OAuthServer.token, clientID: client, clientSecret: "secret",
                                                    clientAuthentication: authentication, tokenSession: makeSession())
            #expect(try await refresh(authenticator, OAuth2Credential(accessToken: "none")).get().accessToken.hasPrefix("at-\(client)-"))
        }
        let wrong = OAuth2Authenticator(tokenEndpoint: OAuthServer.token, clientID: client, clientSecret: "guess",
                                        tokenSession: makeSession())
        let error = oauthError(await refresh(wrong, OAuth2Credential(accessToken: "none")))
        #expect(error?.code == .invalidClient && error?.statusCode == 401)
    }

    @Test func endpointErrorsAreTyped() async throws {
        let client = uniqueKey()
        let authenticator = OAuth2Authenticator(tokenEndpoint: OAuthServer.token, clientID: client, clientSecret: "secret",
                                                tokenSession: makeSession())
        let secretless = OAuth2Authenticator(tokenEndpoint: OAuthServer.token, clientID: client, tokenSession: makeSession())
        #expect(oauthError(await refresh(secretless, OAuth2Credential(accessToken: "a", refreshToken: "revoked")))?.code
                == .invalidGrant)
        // With the client's secret, a refused refresh token is replaced by client credentials.
        let replaced = try await refresh(authenticator, OAuth2Credential(accessToken: "a", refreshToken: "revoked")).get()
        #expect(replaced.accessToken.hasPrefix("at-\(client)-") && replaced.refreshToken != "revoked")
        let broken = OAuth2Authenticator(tokenEndpoint: URL(string: Server.faults("/oauth/token?broken=1"))!, clientID: client,
                                         clientSecret: "secret", tokenSession: makeSession())
        let error = oauthError(await refresh(broken, OAuth2Credential(accessToken: "a", refreshToken: "r")))
        #expect(error?.code == .invalidResponse && error?.statusCode == 500)
        #expect(oauthError(await refresh(secretless, OAuth2Credential(accessToken: "a")))?.code == .noGrant)
    }

    @Test func requiresRefreshFollowsExpiryAndLeeway() {
        #expect(!OAuth2Credential(accessToken: "a").requiresRefresh)
        #expect(OAuth2Credential(accessToken: "a", expiration: Date().addingTimeInterval(30)).requiresRefresh)
        #expect(!OAuth2Credential(accessToken: "a", expiration: Date().addingTimeInterval(30), refreshLeeway: 10).requiresRefresh)
        #expect(OAuth2Credential(accessToken: "a", expiration: Date().addingTimeInterval(-1), refreshLeeway: 0).requiresRefresh)
    }
}
