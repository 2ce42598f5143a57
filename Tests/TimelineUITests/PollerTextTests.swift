import Testing
import TimelineCore
@testable import TimelineUI

/// The status bar's poller text: the last receive's age appears only once the endpoint has gone quiet,
/// so a healthy idle screen has nothing that changes every second (and the loop can sleep).
@Suite struct PollerTextTests {
    static let now: Int64 = 1_795_000_000_000_000

    private func text(lastReceiveSecondsAgo seconds: Int64?) -> String {
        let view = PollerStatusView(state: .connected, queueName: "q",
                                    lastReceiveMicros: seconds.map { Self.now - $0 * 1_000_000 })
        return PollerText.describe(view, nowMicros: Self.now)
    }

    @Test func aReceiveWithinALongPollShowsNoAge() {
        #expect(text(lastReceiveSecondsAgo: 0) == "● connected")
        #expect(text(lastReceiveSecondsAgo: 19) == "● connected")
        #expect(text(lastReceiveSecondsAgo: 29) == "● connected")
        #expect(text(lastReceiveSecondsAgo: nil) == "● connected")
    }

    @Test func aQuietEndpointShowsTheAgeOfTheLastReceive() {
        #expect(text(lastReceiveSecondsAgo: 30) == "● connected · last receive 30s ago")
        #expect(text(lastReceiveSecondsAgo: 125) == "● connected · last receive 2m ago")
    }
}
