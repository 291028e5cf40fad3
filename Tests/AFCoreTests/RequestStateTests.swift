@testable import AFCore
import AFTestSupport
import Testing

@Suite struct RequestStateTests {
    typealias State = Request.State

    @Test func initializedGoesAnywhere() {
        for target in [State.initialized, .resumed, .suspended, .cancelled, .finished] {
            #expect(State.initialized.canTransition(to: target))
        }
    }

    @Test func resumedAndSuspendedAlternate() {
        #expect(State.resumed.canTransition(to: .suspended))
        #expect(State.suspended.canTransition(to: .resumed))
        #expect(!State.resumed.canTransition(to: .resumed))
        #expect(!State.suspended.canTransition(to: .suspended))
        #expect(State.resumed.canTransition(to: .cancelled))
        #expect(State.suspended.canTransition(to: .cancelled))
        #expect(State.resumed.canTransition(to: .finished))
    }

    @Test func terminalStatesStay() {
        for target in [State.initialized, .resumed, .suspended, .cancelled, .finished] {
            #expect(!State.cancelled.canTransition(to: target))
            #expect(!State.finished.canTransition(to: target))
        }
        #expect(!State.resumed.canTransition(to: .initialized))
    }
}
