import AFAuth
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// AuthenticationInterceptor with the OAuth 2.0 authenticator, against the fault server's token
/// endpoint and protected resource (Tests/Fixtures/faults.py) and httpbin's /bearer.
@Suite(.timeLimit(.minutes(1))) struct AuthenticationInterceptorTests {
    static func authenticator(_ client: String, secret: String? = "secret",
                              didRefresh: (@Sendable (OAuth2Credential) -> Void)? = nil,
                              didReject: (@Sendable (OAuth2Error) -> Void)? = nil) -> OAuth2Authenticator {
        OAuth2Authenticator(tokenEndpoint: OAuthServer.token, clientID: client, clientSecret: secret,
                            tokenSession: makeSession(), didRefresh: didRefresh, didReject: didReject)
    }

    static let expired = OAuth2Credential(accessToken: "stale", refreshToken: "rt-0",
                                          expiration: Date().addingTimeInterval(-10))

    /// Sends `count` GETs to `url` at once through `session`; their responses.
    static func concurrently(_ count: Int, _ url: String, on session: Session,
                             interceptor: any RequestInterceptor) async -> [AFDataResponse<Data>] {
        await withTaskGroup(of: AFDataResponse<Data>.self) { group in
            for _ in 0..<count {
                group.addTask { await session.request(url, interceptor: interceptor).validate().serializingData().response }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func aHundredRequestsWithAnExpiredCredentialCauseOneRefresh() async throws {
        let client = uniqueKey(), adapted = Gate(opensAfter: 100)
        let authenticator = GatedAuthenticator(Self.authenticator(client), gate: adapted)
        let interceptor = AuthenticationInterceptor(authenticator: authenticator, credential: Self.expired)
        let session = makeSession()
        // The refresh finishes only after all 100 requests asked to be adapted: all of them wait for it.
        let responses = await Self.concurrently(100, OAuthServer.resource(client), on: session,
                                                interceptor: Counting(wrapped: interceptor, adapted: adapted))
        #expect(responses.filter { $0.response?.statusCode == 200 }.count == 100)
        #expect(authenticator.refreshes == 1)
        #expect(await OAuthServer.refreshes(client) == 1)
        #expect(interceptor.credential?.accessToken == "at-\(client)-1")
        #expect(interceptor.credential?.refreshToken == "rt-\(client)-1")
        withExtendedLifetime(session) {}
    }

    @Test func aCredentialTheServerRefusesIsRefreshedOnceAndEveryRequestRetried() async throws {
        let client = uniqueKey(), retried = Gate(opensAfter: 100)
        let authenticator = GatedAuthenticator(Self.authenticator(client), gate: retried)
        // Not expired locally, but the server never issued it: every request gets a 401.
        let credential = OAuth2Credential(accessToken: "unknown", refreshToken: "rt-0", expiration: Date().addingTimeInterval(3600))
        let interceptor = AuthenticationInterceptor(authenticator: authenticator, credential: credential)
        let session = makeSession()
        let responses = await Self.concurrently(100, OAuthServer.resource(client), on: session,
                                                interceptor: Counting(wrapped: interceptor, retried: retried))
        #expect(responses.filter { $0.response?.statusCode == 200 }.count == 100)
        #expect(responses.allSatisfy { $0.request?.headers["Authorization"] == "Bearer at-\(client)-1" })
        #expect(authenticator.refreshes == 1)
        #expect(await OAuthServer.refreshes(client) == 1)
        withExtendedLifetime(session) {}
    }

    @Test func aRetryDecidedWhileARefreshEndsIsRetriedWithoutAnotherRefresh() async throws {
        let client = uniqueKey(), lateHeader = "X-Late-Request", refreshGoesOn = Gate(opensAfter: 1)
        // The refresh waits until the late request's retry is being decided; that decision waits
        // (at most 20 s, should the interceptor hold a lock meanwhile) for the refresh to end.
        let authenticator = GatedAuthenticator(Self.authenticator(client), gate: refreshGoesOn) { authenticator, request in
            guard request.value(forHTTPHeaderField: lateHeader) != nil else { return }
            refreshGoesOn.arrive()
            authenticator.refreshEnded.wait()
        }
        // Not expired locally, but the server never issued it: both requests get a 401.
        let credential = OAuth2Credential(accessToken: "unknown", refreshToken: "rt-0", expiration: Date().addingTimeInterval(3600))
        let interceptor = AuthenticationInterceptor(authenticator: authenticator, credential: credential)
        let session = makeSession()
        let url = OAuthServer.resource(client)
        let first = Task { await session.request(url, interceptor: interceptor).validate().serializingData().response }
        // The first 401 started the refresh; it goes on only once the late request's retry is
        // being decided, and ends within that decision unless the decision holds the lock.
        await authenticator.refreshStarted.wait()
        let late = await session.request(url, headers: [lateHeader: "1"], interceptor: interceptor)
            .validate().serializingData().response
        let responses = [await first.value, late]
        #expect(responses.map { $0.response?.statusCode } == [200, 200])
        #expect(responses.allSatisfy { $0.request?.headers["Authorization"] == "Bearer at-\(client)-1" })
        #expect(authenticator.refreshes == 1)
        #expect(await OAuthServer.refreshes(client) == 1)
        withExtendedLifetime(session) {}
    }

    @Test func aRefreshFailureFailsEveryWaitingRequestWithTheRefreshError() async throws {
        let client = uniqueKey(), adapted = Gate(opensAfter: 10)
        // Without a client secret: nothing to start over with once the refresh token is refused.
        let rejected = Protected<[OAuth2Error]>([])
        let authenticator = GatedAuthenticator(Self.authenticator(client, secret: nil, didReject: { error in
            rejected.withLock { $0.append(error) }
        }), gate: adapted)
        let revoked = OAuth2Credential(accessToken: "stale", refreshToken: "revoked", expiration: Date().addingTimeInterval(-10))
        let interceptor = AuthenticationInterceptor(authenticator: authenticator, credential: revoked)
        let session = makeSession()
        let responses = await Self.concurrently(10, OAuthServer.resource(client), on: session,
                                                interceptor: Counting(wrapped: interceptor, adapted: adapted))
        for response in responses {
            guard case let .requestAdaptationFailed(error as OAuth2Error) = response.error else {
                Issue.record("expected the refresh error, got \(String(describing: response.error))")
                continue
            }
            #expect(error.code == .invalidGrant && error.statusCode == 400)
            #expect(error.errorDescription == "refresh token revoked")
        }
        #expect(authenticator.refreshes == 1)
        #expect(interceptor.credential == revoked)
        #expect(rejected.value.map(\.code) == [.invalidGrant], "the app heard that the credential is dead, once")
        withExtendedLifetime(session) {}
    }

    @Test func refreshingAgainAndAgainIsExcessive() async throws {
        let client = uniqueKey()
        // Tokens issued for this client are refused by another client's resource: every refresh
        // "works" and every retry gets a 401 again.
        let interceptor = AuthenticationInterceptor(
            authenticator: Self.authenticator(client), credential: OAuth2Credential(accessToken: "x", refreshToken: "rt-0"),
            refreshWindow: .init(interval: 30, maximumAttempts: 2))
        let session = makeSession()
        let response = await session.request(OAuthServer.resource(uniqueKey()), interceptor: interceptor)
            .validate().serializingData().response
        guard case let .requestRetryFailed(retryError, _) = response.error else {
            Issue.record("expected requestRetryFailed, got \(String(describing: response.error))")
            return
        }
        #expect((retryError as? AuthenticationError) == .excessiveRefresh)
        #expect(await OAuthServer.refreshes(client) == 2)
        withExtendedLifetime(session) {}
    }

    /// A credential that requires refresh however often it is refreshed.
    struct AlwaysStale: AuthenticationCredential {
        var requiresRefresh: Bool { true }
    }

    final class StaleAuthenticator: Authenticator, @unchecked Sendable {
        let applied = Protected(0), refreshed = Protected(0)
        func apply(_ credential: AlwaysStale, to urlRequest: inout URLRequest) { applied.withLock { $0 += 1 } }
        func refresh(_ credential: AlwaysStale, for session: Session,
                     completion: @escaping @Sendable (Result<AlwaysStale, any Error>) -> Void) {
            refreshed.withLock { $0 += 1 }
            completion(.success(AlwaysStale()))
        }
        func didRequest(_ urlRequest: URLRequest, with response: HTTPURLResponse, failDueToAuthenticationError error: any Error) -> Bool {
            false
        }
        func isRequest(_ urlRequest: URLRequest, authenticatedWith credential: AlwaysStale) -> Bool { true }
    }

    @Test func aRefreshedCredentialThatStillRequiresRefreshIsRefreshedAgainUpToTheWindow() async throws {
        let authenticator = StaleAuthenticator()
        let interceptor = AuthenticationInterceptor(authenticator: authenticator, credential: AlwaysStale(),
                                                    refreshWindow: .init(interval: 30, maximumAttempts: 1))
        let session = makeSession()
        let error = await session.request(Server.http("/bench.json"), interceptor: interceptor).serializingData().response.error
        guard case let .requestAdaptationFailed(underlying)? = error else {
            Issue.record("expected requestAdaptationFailed, got \(String(describing: error))")
            return
        }
        #expect((underlying as? AuthenticationError) == .excessiveRefresh)
        #expect(authenticator.refreshed.value == 1)
        #expect(authenticator.applied.value == 0, "the request waiting for the refresh is adapted again, not given the stale credential")
    }

    @Test func withoutACredentialNorAWayToFetchOneRequestsFailUntilOneIsSet() async throws {
        let client = uniqueKey()
        // An authenticator that only refreshes (as Alamofire's are): nil means no credential.
        let interceptor = AuthenticationInterceptor(authenticator: GatedAuthenticator(Self.authenticator(client), gate: Gate(opensAfter: 0)))
        let session = makeSession()
        let failed = await session.request(OAuthServer.resource(client), interceptor: interceptor).serializingData().response
        guard case let .requestAdaptationFailed(error) = failed.error, (error as? AuthenticationError) == .missingCredential else {
            Issue.record("expected missingCredential, got \(String(describing: failed.error))")
            return
        }
        interceptor.credential = Self.expired
        let response = await session.request(OAuthServer.resource(client), interceptor: interceptor).validate().serializingData().response
        #expect(response.response?.statusCode == 200)
        withExtendedLifetime(session) {}
    }

    @Test func theCredentialIsAppliedAsABearerToken() async throws {
        let interceptor = AuthenticationInterceptor(authenticator: Self.authenticator(uniqueKey()),
                                                    credential: OAuth2Credential(accessToken: "abc"))
        let session = makeSession()
        let response = await session.request(Server.httpbin("/bearer"), interceptor: interceptor)
            .validate().serializingDecodable([String: AnyDecodable].self).response
        #expect(response.value?["token"]?.text == "abc")
        withExtendedLifetime(session) {}
    }

    @Test func theCredentialCanBeReadAndSetFromManyThreadsWhileRequestsRun() async throws {
        let client = uniqueKey()
        let interceptor = AuthenticationInterceptor(authenticator: Self.authenticator(client), credential: Self.expired)
        let session = makeSession()
        async let responses = Self.concurrently(20, OAuthServer.resource(client), on: session, interceptor: interceptor)
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            if index % 2 == 0 { _ = interceptor.credential?.accessToken } else { _ = interceptor.credential }
        }
        #expect(await responses.allSatisfy { $0.response?.statusCode == 200 })
        withExtendedLifetime(session) {}
    }
}

/// Enough of JSON to read httpbin's answers.
struct AnyDecodable: Decodable {
    let text: String?
    init(from decoder: any Decoder) throws {
        text = try? decoder.singleValueContainer().decode(String.self)
    }
}
