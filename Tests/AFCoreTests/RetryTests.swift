@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Adaptation and retry through the whole pipeline, against the fault server and httpbin.
@Suite(.timeLimit(.minutes(1))) struct RetryTests {
    struct Failure: Error { let reason: String }

    /// Retries whatever fails, a fixed number of times, without delay.
    final class CountingRetrier: RequestInterceptor, @unchecked Sendable {
        let limit: Int
        let asked = Protected(0)
        init(limit: Int) { self.limit = limit }

        func retry(_ request: Request, for session: Session, dueTo error: any Error,
                   completion: @escaping @Sendable (RetryResult) -> Void) {
            asked.withLock { $0 += 1 }
            completion(request.retryCount < limit ? .retry : .doNotRetry)
        }
    }

    private static let fastPolicy = RetryPolicy(exponentialBackoffScale: 0.01)

    @Test func sessionAdapterRunsBeforeTheRequestAdapter() async throws {
        func appending(_ value: String) -> Adapter {
            Adapter { request, _, completion in
                var request = request
                let current = request.value(forHTTPHeaderField: "X-Order").map { $0 + "," } ?? ""
                request.setValue(current + value, forHTTPHeaderField: "X-Order")
                completion(.success(request))
            }
        }
        let session = makeSession(interceptor: appending("session"))
        let request = session.request(Server.httpbin("/headers"), interceptor: appending("request"))
            .adapt(using: appending("added"))
        let echo = try await request.serializingDecodable(HTTPBinResponse.self).value
        #expect(echo.headers["X-Order"] == "session,request,added")
        #expect(request.requests.count == 2)  // the initial request and the adapted one
    }

    @Test func adapterFailureIsRequestAdaptationFailed() async {
        let session = makeSession(interceptor: Adapter { _, _, completion in completion(.failure(Failure(reason: "no token"))) })
        let error = await session.request(Server.httpbin("/get")).serializingData().response.error
        guard case let .requestAdaptationFailed(underlying) = error else {
            Issue.record("expected requestAdaptationFailed, got \(String(describing: error))")
            return
        }
        #expect((underlying as? Failure)?.reason == "no token")
    }

    @Test func retrierRunsTheRequestAgainUntilItSucceeds() async throws {
        let retrier = CountingRetrier(limit: 5)
        let session = makeSession(interceptor: retrier)
        let request = session.request(Server.faults("/flaky/\(uniqueKey())?fail=2")).validate()
        let value = try await request.serializingDecodable([String: Int].self).value
        #expect(value["attempt"] == 3)
        #expect(request.retryCount == 2)
        #expect(request.tasks.count == 3)
        #expect(request.allMetrics.count == 3)
        #expect(retrier.asked.value == 2)
    }

    @Test func retryPolicyGivesUpAtItsLimit() async {
        let session = makeSession(interceptor: Self.fastPolicy)
        let request = session.request(Server.httpbin("/status/503")).validate()
        let error = await request.serializingData().response.error
        #expect(error?.responseCode == 503)
        #expect(request.retryCount == 2)
    }

    @Test func retryPolicyDoesNotRetryPOST() async {
        let session = makeSession(interceptor: Self.fastPolicy)
        let request = session.request(Server.httpbin("/status/503"), method: .post).validate()
        _ = await request.serializingData().response
        #expect(request.retryCount == 0)
    }

    @Test func retryPolicyIgnoresStatusCodesWithoutValidation() async {
        // A 503 with a body and no validate() is a success: no error, nothing to retry.
        let session = makeSession(interceptor: Self.fastPolicy)
        let request = session.request(Server.faults("/flaky/\(uniqueKey())?fail=5"))
        let response = await request.serializingString().response
        #expect(response.response?.statusCode == 503)
        #expect(response.value == "failing")
        #expect(request.retryCount == 0)
    }

    @Test func anEmptyErrorBodyFailsSerializationAndIsRetried() async {
        // As in Alamofire: an empty 503 fails DataResponseSerializer, and that failure goes to
        // the retriers too.
        let session = makeSession(interceptor: Self.fastPolicy)
        let request = session.request(Server.httpbin("/status/503"))
        let error = await request.serializingData().response.error
        #expect(error?.isResponseSerializationError == true)
        #expect(request.retryCount == 2)
    }

    @Test func connectionLostRetryPolicyRetriesALostConnection() async throws {
        let session = makeSession(interceptor: ConnectionLostRetryPolicy(exponentialBackoffScale: 0.01))
        let request = session.request(Server.faults("/flaky-close/\(uniqueKey())?fail=1"))
        _ = try await request.serializingData().value
        #expect(request.retryCount == 1)
        #expect(request.tasks.first?.state == .completed)
    }

    @Test func retryAfterIsHonouredWhenAskedFor() async throws {
        let policy = RetryPolicy(exponentialBackoffScale: 0.01, retryAfter: RetryAfterPolicy(maximumDelay: 5))
        let session = makeSession(interceptor: policy)
        let request = session.request(Server.faults("/flaky/\(uniqueKey())?fail=1&status=429&retry-after=0")).validate()
        _ = try await request.serializingData().value
        #expect(request.retryCount == 1)
    }

    @Test func retryAfterIsNotReadByDefault() async {
        let session = makeSession(interceptor: Self.fastPolicy)
        let request = session.request(Server.faults("/flaky/\(uniqueKey())?fail=1&status=429&retry-after=0")).validate()
        let error = await request.serializingData().response.error
        #expect(error?.responseCode == 429)
        #expect(request.retryCount == 0)
    }

    @Test func retryAfterLongerThanTheCapIsNotWaitedFor() async {
        let policy = RetryPolicy(retryAfter: RetryAfterPolicy(maximumDelay: 1))
        let session = makeSession(interceptor: policy)
        let request = session.request(Server.faults("/flaky/\(uniqueKey())?fail=1&status=503&retry-after=3600")).validate()
        let error = await request.serializingData().response.error
        #expect(error?.responseCode == 503)
        #expect(request.retryCount == 0)
    }

    @Test func retrierErrorIsRequestRetryFailed() async {
        let session = makeSession(interceptor: Retrier { _, _, _, completion in
            completion(.doNotRetryWithError(Failure(reason: "gave up")))
        })
        let error = await session.request(Server.httpbin("/status/500")).validate().serializingData().response.error
        guard case let .requestRetryFailed(retryError, originalError) = error else {
            Issue.record("expected requestRetryFailed, got \(String(describing: error))")
            return
        }
        #expect((retryError as? Failure)?.reason == "gave up")
        #expect((originalError as? AFError)?.responseCode == 500)
    }

    @Test func aFailingSerializerAsksTheRetriersAgain() async throws {
        struct Attempt: Decodable, Sendable { let attempt: Int }
        let session = makeSession(interceptor: CountingRetrier(limit: 1))
        let request = session.request(Server.faults("/flaky-json/\(uniqueKey())?fail=1"))
        let value = try await request.serializingDecodable(Attempt.self).value
        #expect(value.attempt == 2)
        #expect(request.retryCount == 1)
    }

    /// A serializer's failure asked for a retry with a long delay, then the request was
    /// cancelled (by the caller, or by the session shutting down): it ends at once with the
    /// result it had, where it used to wait forever.
    @Test(arguments: [false, true])
    func aCancelDuringARetryASerializerAskedForEndsTheRequest(byShutdown: Bool) async throws {
        struct Attempt: Decodable, Sendable { let attempt: Int }
        let delayStarted = OneShot()
        let session = makeSession(interceptor: Retrier { request, _, _, completion in
            completion(request.retryCount == 0 ? .retryWithDelay(600) : .doNotRetry)
            delayStarted.fire()
        })
        let request = session.request(Server.faults("/flaky-json/\(uniqueKey())?fail=1"))
        let task = request.serializingDecodable(Attempt.self)
        await delayStarted.wait()
        if byShutdown { await session.shutdown() } else { request.cancel() }
        let response = await task.response
        #expect(response.error?.isResponseSerializationError == true)
        #expect(request.isCancelled)
        #expect(request.retryCount == 0)
    }

    /// A retrier that answers "retry" only after the request was cancelled: the request ends.
    @Test func aRetryDecidedAfterTheCancelEndsTheRequest() async throws {
        struct Attempt: Decodable, Sendable { let attempt: Int }
        let asked = Gate(opensAfter: 1)
        let cancelled = Gate(opensAfter: 1)
        let session = makeSession(interceptor: Retrier { _, _, _, completion in
            asked.arrive()
            DispatchQueue.global().async {
                cancelled.wait()
                completion(.retry)
            }
        })
        let request = session.request(Server.faults("/flaky-json/\(uniqueKey())?fail=1"))
        let task = request.serializingDecodable(Attempt.self)
        asked.wait()
        request.cancel()
        cancelled.arrive()
        let response = await task.response
        #expect(response.error?.isResponseSerializationError == true)
        #expect(request.retryCount == 0)
    }

    /// A retrier asked about a serializer's failure that does not answer (waiting for the
    /// network, say), then a cancel (by the caller, or by the session shutting down): the request
    /// ends at once with the result it had, not when the retrier answers.
    @Test(arguments: [false, true])
    func aCancelWhileTheRetrierOfASerializerDecidesEndsTheRequest(byShutdown: Bool) async throws {
        struct Attempt: Decodable, Sendable { let attempt: Int }
        let asked = OneShot()
        let unanswered = Protected<[@Sendable (RetryResult) -> Void]>([])
        let session = makeSession(interceptor: Retrier { _, _, _, completion in
            unanswered.withLock { $0.append(completion) }  // kept, never called
            asked.fire()
        })
        let request = session.request(Server.faults("/flaky-json/\(uniqueKey())?fail=1"))
        let task = request.serializingDecodable(Attempt.self)
        await asked.wait()
        if byShutdown { await session.shutdown() } else { request.cancel() }
        let response = await task.response
        #expect(response.error?.isResponseSerializationError == true)
        #expect(request.isCancelled)
        #expect(request.retryCount == 0)
        unanswered.withLock { $0.removeAll() }  // they hold the Session, which holds this retrier
    }

    @Test func aRetryDelayDoesNotHoldTheSession() async throws {
        // One request waits 10 minutes before its retry; another on the same session must finish
        // meanwhile (the time limit fails the test if the delay blocks the root queue). The delay
        // is far beyond the time limit so that a slow run (the thread sanitizer's, sharing two
        // cores with the whole suite) cannot see the retry fire before the cancel.
        let delayStarted = OneShot()
        let session = makeSession(interceptor: Retrier { request, _, _, completion in
            completion(request.retryCount == 0 ? .retryWithDelay(600) : .doNotRetry)
            delayStarted.fire()
        })
        let waiting = session.request(Server.httpbin("/status/500")).validate()
        let waitingTask = waiting.serializingData()
        await delayStarted.wait()
        let other = try await session.request(Server.httpbin("/get")).serializingData().value
        #expect(!other.isEmpty)
        waiting.cancel()
        // Cancelled while waiting: it ends at once, keeping the error of its attempt (as Alamofire).
        let error = await waitingTask.response.error
        #expect(error?.responseCode == 500)
        #expect(waiting.isCancelled)
        #expect(waiting.retryCount == 0)
    }

    /// Fires `released` when it goes (held by a Session's interceptor: when the Session goes).
    private final class Sentinel: Sendable {
        let released: OneShot
        init(_ released: OneShot) { self.released = released }
        deinit { released.fire() }
    }

    /// A Session whose interceptor asks for a retry in 10 minutes, and fires `released` when
    /// the Session is released. The sentinel is held by the interceptor alone.
    /// `cancellingAfterAnswer`: the interceptor cancels the request right after answering, before
    /// the answer (handed to the request's queue, on which it is asked) schedules the retry.
    private func sessionRetryingLater(delayStarted: OneShot, released: OneShot,
                                      cancellingAfterAnswer: Bool = false) -> Session {
        let sentinel = Sentinel(released)
        return makeSession(interceptor: Retrier { request, _, _, completion in
            withExtendedLifetime(sentinel) {}
            completion(request.retryCount == 0 ? .retryWithDelay(600) : .doNotRetry)
            if cancellingAfterAnswer { request.cancel() }
            delayStarted.fire()
        })
    }

    /// A serializer added after the request ended fails, and its retry waits for a delay: the
    /// request is active again, so a shutdown ends it instead of leaving it to run after.
    @Test func aShutdownEndsARetryALateSerializerAskedFor() async throws {
        struct Numbers: Decodable, Sendable { let numbers: [Int] }
        let delayStarted = OneShot()
        let session = makeSession(interceptor: Retrier { request, _, _, completion in
            completion(request.retryCount == 0 ? .retryWithDelay(600) : .doNotRetry)
            delayStarted.fire()
        })
        let request = session.request(Server.httpbin("/get"))
        _ = try await request.serializingData().value
        let late = request.serializingDecodable(Numbers.self)
        await delayStarted.wait()
        await session.shutdown()
        let response = await late.response
        #expect(response.error?.isResponseSerializationError == true)
        #expect(request.retryCount == 0)
    }

    /// The same retry asked for after the Session shut down does not begin: the serializer
    /// delivers the result it had.
    @Test func aRetryALateSerializerAsksForAfterTheShutdownDoesNotBegin() async throws {
        struct Numbers: Decodable, Sendable { let numbers: [Int] }
        let session = makeSession(interceptor: Retrier { request, _, _, completion in
            completion(request.retryCount == 0 ? .retry : .doNotRetry)
        })
        let request = session.request(Server.httpbin("/get"))
        _ = try await request.serializingData().value
        await session.shutdown()
        let response = await request.serializingDecodable(Numbers.self).response
        #expect(response.error?.isResponseSerializationError == true)
        #expect(request.retryCount == 0)
    }

    /// A cancel between the retrier's answer and the retry's scheduling: the retry is not
    /// scheduled, and nothing of it holds the Session.
    @Test func aRetryCancelledBeforeItWasScheduledLetsGoOfTheSession() async throws {
        let delayStarted = OneShot()
        let released = OneShot()
        var session: Session? = sessionRetryingLater(delayStarted: delayStarted, released: released,
                                                     cancellingAfterAnswer: true)
        let request = try #require(session).request(Server.httpbin("/status/500")).validate()
        let response = await request.serializingData().response
        #expect(response.error?.responseCode == 500)
        #expect(request.isCancelled)
        #expect(request.retryCount == 0)
        session = nil
        await released.wait()
    }

    /// A retry waiting for its delay that will not begin (the request was cancelled, or the
    /// Session shut down) lets go of the Session at once: the app can release it, and its
    /// engine with it, without waiting out the delay (then the time limit fails the test).
    @Test(arguments: [false, true])
    func aDelayedRetryThatWillNotBeginLetsGoOfTheSession(byShutdown: Bool) async throws {
        let delayStarted = OneShot()
        let released = OneShot()
        var session: Session? = sessionRetryingLater(delayStarted: delayStarted, released: released)
        let request = try #require(session).request(Server.httpbin("/status/500")).validate()
        let task = request.serializingData()
        await delayStarted.wait()
        if byShutdown { await session?.shutdown() } else { request.cancel() }
        #expect(await task.response.error?.responseCode == 500)
        session = nil
        await released.wait()
    }
}
