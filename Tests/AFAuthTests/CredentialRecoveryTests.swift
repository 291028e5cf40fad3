import AFAuth
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A daemon's token life: the first token from nothing, a token server that restarted and forgot
/// its tokens, the credential kept on disk between runs.
@Suite(.timeLimit(.minutes(1))) struct CredentialRecoveryTests {
    /// A directory of the test's own, removed after.
    private static func scratchDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("af-credentials-\(uniqueKey())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    private static func forget(_ client: String) async {
        let session = makeSession()
        _ = await session.request(Server.faults("/oauth/forget/\(client)")).serializingData().response
    }

    @Test func withoutACredentialTheFirstRequestsFetchOneTogether() async throws {
        let client = uniqueKey()
        let saved = Protected<[OAuth2Credential]>([])
        let interceptor = AuthenticationInterceptor(authenticator: AuthenticationInterceptorTests.authenticator(client, didRefresh: { credential in
            saved.withLock { $0.append(credential) }
        }), credential: nil)
        let session = makeSession()
        let responses = await AuthenticationInterceptorTests.concurrently(10, OAuthServer.resource(client), on: session,
                                                                          interceptor: interceptor)
        #expect(responses.filter { $0.response?.statusCode == 200 }.count == 10)
        #expect(await OAuthServer.refreshes(client) == 1, "one token request for ten requests")
        #expect(interceptor.credential?.accessToken == "at-\(client)-1")
        #expect(saved.value.map(\.accessToken) == ["at-\(client)-1"])
    }

    @Test func aRestartedTokenServerIsSurvivedWithTheClientSecret() async throws {
        let client = uniqueKey()
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = CredentialStore<OAuth2Credential>(fileURL: directory.appendingPathComponent("state/credential.json"))
        func interceptor() throws -> AuthenticationInterceptor<OAuth2Authenticator> {
            AuthenticationInterceptor(authenticator: AuthenticationInterceptorTests.authenticator(client, didRefresh: { credential in
                try? store.save(credential)
            }), credential: try store.load())
        }
        let session = makeSession()
        // First run: nothing stored; the first token is fetched and stored.
        let first = try interceptor()
        #expect(await session.request(OAuthServer.resource(client), interceptor: first).validate().serializingData().response.error == nil)
        #expect(try store.load()?.accessToken == "at-\(client)-1")

        // The token server restarts: the stored access and refresh tokens mean nothing to it now.
        await Self.forget(client)
        let second = try interceptor()
        let response = await session.request(OAuthServer.resource(client), interceptor: second).validate().serializingData().response
        #expect(response.error == nil, "got \(String(describing: response.error))")
        // The refresh token was refused (token request 2); client credentials gave token 3.
        #expect(second.credential?.accessToken == "at-\(client)-3")
        #expect(try store.load() == second.credential, "the new credential replaced the dead one on disk")

        // The next run starts from what was stored, without a token request.
        let third = try interceptor()
        #expect(await session.request(OAuthServer.resource(client), interceptor: third).validate().serializingData().response.error == nil)
        #expect(await OAuthServer.refreshes(client) == 3)
    }

    @Test func tenRequestsRefusedAfterARestartRecoverWithOneRefresh() async throws {
        let client = uniqueKey()
        let interceptor = AuthenticationInterceptor(authenticator: AuthenticationInterceptorTests.authenticator(client), credential: nil)
        let session = makeSession()
        #expect(await session.request(OAuthServer.resource(client), interceptor: interceptor).validate().serializingData().response.error == nil)
        await Self.forget(client)
        // All ten are refused (401) with the forgotten token; one refresh is refused
        // (invalid_grant), one client credentials grant replaces it, and all ten are retried.
        let responses = await AuthenticationInterceptorTests.concurrently(10, OAuthServer.resource(client), on: session,
                                                                          interceptor: interceptor)
        #expect(responses.filter { $0.response?.statusCode == 200 }.count == 10)
        #expect(await OAuthServer.refreshes(client) == 3, "the first token, the refused refresh, the new grant")
        #expect(interceptor.credential?.accessToken == "at-\(client)-3")
    }

    @Test func withoutASecretARefusedRefreshTokenIsReportedOnce() async throws {
        let client = uniqueKey()
        let rejected = Protected<[OAuth2Error]>([])
        let authenticator = AuthenticationInterceptorTests.authenticator(client, secret: nil, didReject: { error in
            rejected.withLock { $0.append(error) }
        })
        let interceptor = AuthenticationInterceptor(authenticator: authenticator, credential: AuthenticationInterceptorTests.expired)
        let session = makeSession()
        #expect(await session.request(OAuthServer.resource(client), interceptor: interceptor).validate().serializingData().response.error == nil)
        await Self.forget(client)
        let response = await session.request(OAuthServer.resource(client), interceptor: interceptor).validate().serializingData().response
        guard case let .requestRetryFailed(retryError as OAuth2Error, _)? = response.error else {
            Issue.record("expected the refusal of the refresh token, got \(String(describing: response.error))")
            return
        }
        #expect(retryError.code == .invalidGrant && retryError.errorDescription == "refresh token unknown")
        #expect(rejected.value.map(\.code) == [.invalidGrant])
    }

    @Test func theStoreKeepsTheFileToItsOwnerAndReplacesItWhole() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("daemon/credential.json")
        let store = CredentialStore<OAuth2Credential>(fileURL: file)
        #expect(try store.load() == nil)
        let credential = OAuth2Credential(accessToken: "a", refreshToken: "r", expiration: Date(timeIntervalSince1970: 2_000_000_000))
        try store.save(credential)
        try store.save(credential)
        #expect(try store.load() == credential)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: file.deletingLastPathComponent().path)
        #expect((folder[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path) == ["credential.json"],
                "no temporary file left beside it")
        try store.remove()
        try store.remove()
        #expect(try store.load() == nil)
    }

    @Test func aFileOthersCanReadOrThatHoldsNoCredentialIsRefused() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("credential.json")
        let store = CredentialStore<OAuth2Credential>(fileURL: file)
        try store.save(OAuth2Credential(accessToken: "a"))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        #expect { try store.load() } throws: { ($0 as? CredentialStoreError)?.reason == .exposed }
        try Data("not json".utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        #expect { try store.load() } throws: { ($0 as? CredentialStoreError)?.reason == .undecodable }
    }
}
