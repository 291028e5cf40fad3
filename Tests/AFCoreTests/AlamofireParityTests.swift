@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Behaviour Alamofire's own test suite expects of a Session and its requests, checked here
/// against the local servers.
@Suite(.timeLimit(.minutes(1))) struct AlamofireParityTests {
    @Test func anEmptyBodyIsNoData() async {
        let session = makeSession()
        let empty = await session.request(Server.httpbin("/status/204")).serializingData(emptyResponseCodes: [204]).response
        #expect(empty.data == nil)
        #expect(empty.error == nil)
        let refused = await session.request(Server.httpbin("/status/401")).validate().serializingData().response
        #expect(refused.data == nil && refused.error?.responseCode == 401)
        let full = await session.request(Server.http("/bench.json")).serializingData().response
        #expect(full.data?.count == 17)
    }

    @Test func theURLSessionHasTheSessionsDelegate() {
        let delegate = SessionDelegate()
        let session = Session(delegate: delegate)
        #expect(session.session.delegate === delegate)
        #expect(session.delegate === session.session.delegate)
    }

    @Test func aReleasedSessionEndsItsRequestsAndTasksAndSaysItIsInvalid() async {
        _ = TestServers.shared
        let invalidated = OneShot()
        let monitor = ClosureEventMonitor()
        monitor.sessionDidBecomeInvalidWithError = { _, _ in invalidated.fire() }
        var session: Session? = Session(startRequestsImmediately: false, requestSetup: .eager, eventMonitors: [monitor])
        let request = session?.request(Server.http("/bench.json"))
        let created = OneShot()
        request?.onURLSessionTaskCreation(on: .global()) { _ in created.fire() }
        await created.wait()
        let outcome = request?.serializingData(automaticallyCancelling: false)
        session = nil
        await invalidated.wait()
        #expect(await outcome?.response.error?.isSessionDeinitializedError == true)
        #expect([.canceling, .completed].contains(request?.task?.state))
    }

    @Test func theStaticSerializerShorthandsNameTheAsyncSerializers() async throws {
        let session = makeSession()
        let data = try await session.request(Server.http("/bench.json")).serializingResponse(using: .data).value
        #expect(data.count == 17)
        let downloaded = await session.download(Server.http("/bench.json")).serializingDownload(using: .data).response
        #expect(try downloaded.result.get().count == 17)
        if let file = downloaded.fileURL { try? FileManager.default.removeItem(at: file) }
    }
}

/// Accessors and conveniences Alamofire keeps internal and AF offers.
@Suite struct RetryResultAccessorTests {
    struct Failure: Error {}

    @Test func accessorsReadTheDecision() {
        #expect(RetryResult.retry.retryRequired && RetryResult.retryWithDelay(2).retryRequired)
        #expect(!RetryResult.doNotRetry.retryRequired && !RetryResult.doNotRetryWithError(Failure()).retryRequired)
        #expect(RetryResult.retryWithDelay(2).delay == 2 && RetryResult.retry.delay == nil)
        #expect(RetryResult.doNotRetryWithError(Failure()).error is Failure && RetryResult.doNotRetry.error == nil)
    }

    @Test func operationQueueRunsOnItsUnderlyingQueue() {
        let underlying = DispatchQueue(label: "test.underlying")
        let queue = OperationQueue(maxConcurrentOperationCount: 1, underlyingQueue: underlying, name: "delegate",
                                   startSuspended: true)
        #expect(queue.underlyingQueue === underlying && queue.name == "delegate" && queue.isSuspended)
        #expect(queue.maxConcurrentOperationCount == 1)
    }
}
