@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A 401 challenge that the engine answers with the request's credential is part of the
/// exchange, as in URLSession: no handler, monitor or validator sees its head, only the answer's.
/// A challenge that stays unanswered (a wrong password) is the response, seen once.
@Suite(.timeLimit(.minutes(1))) struct ChallengeHeadTests {
    private let queue = DispatchQueue(label: "test.challenge-head")
    private let digest = Server.httpbin("/digest-auth/auth/user/secret")

    /// `url` requested with the credential user/`password`; each head `onHTTPResponse` sees is
    /// recorded in `heads`.
    private func request(_ url: String, on session: Session, password: String = "secret",
                         recordingHeadsIn heads: Protected<[Int]>) -> DataRequest {
        session.request(url)
            .authenticate(username: "user", password: password)
            .onHTTPResponse(on: queue) { response in heads.withLock { $0.append(response.statusCode) } }
    }

    @Test(arguments: ["basic", "digest"])
    func anAnsweredChallengeIsNotSeenAsAResponse(scheme: String) async throws {
        let session = makeSession(configuration: .af.ephemeral)  // httpbin's digest sets a cookie
        let heads = Protected<[Int]>([])
        let url = scheme == "basic" ? Server.httpbin("/basic-auth/user/secret") : digest
        let response = await request(url, on: session, recordingHeadsIn: heads).validate().serializingData().response
        #expect(response.response?.statusCode == 200)
        queue.sync {}
        #expect(heads.value == [200])
    }

    /// curl answers a Digest challenge again when the server says its nonce went stale.
    @Test func aStaleNonceIsAnsweredToo() async throws {
        let session = makeSession()
        let heads = Protected<[Int]>([])
        let response = await session.request(Server.faults("/digest-stale"))
            .authenticate(username: "user", password: "secret")
            .onHTTPResponse(on: queue) { response, completionHandler in
                heads.withLock { $0.append(response.statusCode) }
                completionHandler(.allow)
            }
            .validate()
            .serializingString().response
        #expect(response.value == "fresh")
        queue.sync {}
        #expect(heads.value == [200])
    }

    /// The exchange failed while curl answered the challenge: the challenge is not the response.
    @Test func aFailedAnswerLeavesNoResponse() async throws {
        let session = makeSession()
        let heads = Protected<[Int]>([])
        let response = await request(Server.faults("/basic-challenge?answer=close"), on: session, recordingHeadsIn: heads)
            .serializingData().response
        #expect(response.error != nil)
        #expect(response.response == nil)
        queue.sync {}
        #expect(heads.value.isEmpty)
    }

    @Test func aStreamValidatesTheAnswerNotTheChallenge() async throws {
        let session = makeSession(configuration: .af.ephemeral)
        let validated = Protected<[Int]>([])
        let received = Protected(Data())
        let done = OneShot()
        let completion = Protected<DataStreamRequest.Completion?>(nil)
        session.streamRequest(digest)
            .authenticate(username: "user", password: "secret")
            .validate { _, response in
                validated.withLock { $0.append(response.statusCode) }
                return .success(())
            }
            .validate()
            .responseStream(on: queue) { stream in
                switch stream.event {
                case let .stream(.success(data)): received.withLock { $0.append(data) }
                case let .complete(end):
                    completion.withLock { $0 = end }
                    done.fire()
                }
            }
        await done.wait()
        #expect(completion.value?.error == nil, "\(String(describing: completion.value?.error))")
        #expect(completion.value?.response?.statusCode == 200)
        #expect(validated.value == [200])
        #expect(String(decoding: received.value, as: UTF8.self).contains("\"authenticated\": true"))
    }

    @Test(arguments: ["basic", "digest"])
    func aChallengeLeftUnansweredIsTheResponseSeenOnce(scheme: String) async throws {
        let session = makeSession(configuration: .af.ephemeral)
        let heads = Protected<[Int]>([])
        let url = scheme == "basic" ? Server.httpbin("/basic-auth/user/secret") : digest
        let response = await request(url, on: session, password: "wrong", recordingHeadsIn: heads)
            .serializingData(emptyResponseCodes: [200, 401]).response
        #expect(response.response?.statusCode == 401)
        queue.sync {}
        #expect(heads.value == [401])
    }

    /// A challenge the credential cannot answer (Bearer) is the response: its head is reported
    /// before its body, or, with no body, before the end; a handler deciding on the head is asked.
    @Test(arguments: [true, false])
    func aChallengeTheCredentialCannotAnswerIsTheResponse(withBody: Bool) async throws {
        let session = makeSession()
        let heads = Protected<[Int]>([])
        let url = withBody ? Server.faults("/oauth/resource/nobody") : Server.httpbin("/bearer")
        let response = await session.request(url)
            .authenticate(username: "user", password: "secret")
            .onHTTPResponse(on: queue) { response, completionHandler in
                heads.withLock { $0.append(response.statusCode) }
                completionHandler(.allow)
            }
            .serializingString(emptyResponseCodes: [401]).response
        #expect(response.response?.statusCode == 401)
        queue.sync {}
        #expect(heads.value == [401])
        #expect(response.value == (withBody ? "token refused" : ""))
    }
}
