@testable import AFCore
@testable import AFServiceLifecycle
import Foundation
import Testing

@Suite(.timeLimit(.minutes(1))) struct AdmissionGateTests {
    /// A wait whose timeout ends before the wait has begun (a grace period of zero) still ends,
    /// with "not idle", while an admitted request is left: it does not wait for that request.
    @Test func aTimeoutThatEndsBeforeTheWaitBeginsStillEndsIt() async {
        let session = Session()
        for _ in 0..<20 {
            let gate = AdmissionGate()
            let state = RequestAdapterState(requestID: UUID(), session: session)
            gate.adapt(URLRequest(url: URL(string: "http://127.0.0.1/")!), using: state) { _ in }
            gate.close()
            #expect(await gate.waitUntilIdle(timeout: .zero) == false)
        }
    }

    @Test func aGateWithNothingAdmittedIsIdleAtOnce() async {
        let gate = AdmissionGate()
        gate.close()
        #expect(await gate.waitUntilIdle(timeout: .seconds(30)))
    }
}
