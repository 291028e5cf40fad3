@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A request's deadline across its retries, and retries stopped from outside
/// (`stopRetrying(because:)`): whatever a retrier is doing, the request ends then.
@Suite(.timeLimit(.minutes(1))) struct DeadlineTests {
    struct Stop: Error {}

    /// Answers each retry question with `answer`; says when it was first asked. `nil`: never
    /// answers (a retrier waiting for the network, say).
    final class ScriptedRetrier: RequestInterceptor, @unchecked Sendable {
        let answer: RetryResult?
        /// Stops the request's retries right after answering, as a shutdown that starts just then.
        let stopAfterAnswering: Bool
        let asked = OneShot()
        let questions = Protected(0)
        init(answer: RetryResult?, stopAfterAnswering: Bool = false) {
            self.answer = answer
            self.stopAfterAnswering = stopAfterAnswering
        }

        func retry(_ request: Request, for session: Session, dueTo error: any Error,
                   completion: @escaping @Sendable (RetryResult) -> Void) {
            questions.withLock { $0 += 1 }
            asked.fire()
            if let answer { completion(answer) }
            if stopAfterAnswering { request.stopRetrying(because: Stop()) }
        }
    }

    private func isDeadline(_ error: AFError?) -> Bool {
        guard case let .sessionTaskFailed(underlying)? = error, let urlError = underlying as? URLError else { return false }
        return urlError.code == .timedOut && urlError.isCausedByDeadline
    }

    @Test func deadlineEndsAnAttemptThatNeverAnswers() async {
        let retrier = ScriptedRetrier(answer: .retry)
        let session = makeSession(interceptor: retrier)
        let request = session.request(Server.faults("/stall")).deadline(after: 0.3)
        let error = await request.serializingData().response.error
        #expect(isDeadline(error), "got \(String(describing: error))")
        #expect(retrier.questions.value == 0, "a deadline's end is not offered to the retriers")
        #expect(request.retryCount == 0)
    }

    @Test func deadlineEndsARetrierThatIsStillDeciding() async {
        let retrier = ScriptedRetrier(answer: nil)
        let session = makeSession(interceptor: retrier)
        let request = session.request(Server.faults("/flaky/\(uniqueKey())?fail=9")).validate()
        let outcome = request.serializingData()
        await retrier.asked.wait()
        request.deadline(after: 0.1)
        let error = await outcome.response.error
        #expect(isDeadline(error), "got \(String(describing: error))")
    }

    @Test func deadlineEndsARetryWaitingForItsDelay() async {
        let retrier = ScriptedRetrier(answer: .retryWithDelay(600))
        let session = makeSession(interceptor: retrier)
        let request = session.request(Server.faults("/flaky/\(uniqueKey())?fail=9")).validate()
        let outcome = request.serializingData()
        await retrier.asked.wait()
        request.deadline(after: 0.1)
        let error = await outcome.response.error
        #expect(isDeadline(error), "got \(String(describing: error))")
        #expect(request.retryCount == 0)
    }

    @Test func retriesBeforeTheDeadlineRunAsUsual() async throws {
        let session = makeSession(interceptor: RetryPolicy(exponentialBackoffScale: 0.01))
        let request = session.request(Server.faults("/flaky/\(uniqueKey())?fail=2")).validate().deadline(after: 30)
        let value = try await request.serializingDecodable([String: Int].self).value
        #expect(value["attempt"] == 3)
        #expect(request.retryCount == 2)
    }

    @Test func aRequestStartedAfterItsDeadlineEndsWithoutGoingOut() async throws {
        let session = makeSession(startRequestsImmediately: false)
        let key = uniqueKey()
        let request = session.request(Server.faults("/flaky/\(key)?fail=0")).deadline(after: 0)
        // The timer runs on the request's queue: a block queued behind it runs after it.
        await response { done in request.underlyingQueue.async { done(()) } }
        let outcome = request.serializingData()
        request.resume()
        let error = await outcome.response.error
        #expect(isDeadline(error), "got \(String(describing: error))")
        let next = session.request(Server.faults("/flaky/\(key)?fail=0"))
        let served = next.serializingDecodable([String: Int].self)
        next.resume()
        #expect(try await served.value["attempt"] == 1, "the request past its deadline never reached the server")
    }

    @Test func stopRetryingEndsARetrierThatIsStillDeciding() async {
        let retrier = ScriptedRetrier(answer: nil)
        let session = makeSession(interceptor: retrier)
        let request = session.request(Server.faults("/flaky/\(uniqueKey())?fail=9")).validate()
        let outcome = request.serializingData()
        await retrier.asked.wait()
        request.stopRetrying(because: Stop())
        let error = await outcome.response.error
        guard case let .requestRetryFailed(retryError, originalError)? = error else {
            Issue.record("expected requestRetryFailed, got \(String(describing: error))")
            return
        }
        #expect(retryError is Stop)
        #expect((originalError as? AFError)?.responseCode == 503)
    }

    /// A stop that comes after the retrier answered but before its retry was scheduled (the
    /// answer is handed to the request's queue, on which this retrier is asked) still ends the
    /// request at once, not when the delay is over.
    @Test func stopRetryingRightAfterTheAnswerEndsTheRetryItScheduled() async {
        let retrier = ScriptedRetrier(answer: .retryWithDelay(600), stopAfterAnswering: true)
        let session = makeSession(interceptor: retrier)
        let request = session.request(Server.faults("/flaky/\(uniqueKey())?fail=9")).validate()
        let error = await request.serializingData().response.error
        guard case let .requestRetryFailed(retryError, originalError)? = error else {
            Issue.record("expected requestRetryFailed, got \(String(describing: error))")
            return
        }
        #expect(retryError is Stop)
        #expect((originalError as? AFError)?.responseCode == 503)
        #expect(request.retryCount == 0)
    }

    @Test func afterStopRetryingNoRetrierIsAsked() async {
        let retrier = ScriptedRetrier(answer: .retry)
        let session = makeSession(interceptor: retrier)
        let request = session.request(Server.faults("/flaky/\(uniqueKey())?fail=9")).validate()
        request.stopRetrying(because: Stop())
        let error = await request.serializingData().response.error
        guard case let .requestRetryFailed(retryError, _)? = error else {
            Issue.record("expected requestRetryFailed, got \(String(describing: error))")
            return
        }
        #expect(retryError is Stop)
        #expect(retrier.questions.value == 0)
        #expect(request.retryCount == 0)
    }
}
