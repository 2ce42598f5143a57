import Foundation
import Ingest
import Testing

/// What `timeline poll` logs and when, without a poller or a clock.
@Suite struct PollerLogTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func status(_ state: PollerStatus.State, stored: Int = 0) -> PollerStatus {
        var status = PollerStatus()
        status.state = state
        status.stored = stored
        return status
    }

    @Test func aSummaryAMinuteAndNothingBetween() {
        var log = PollerLog(verbose: false, status: status(.connecting), now: start)
        #expect(log.nextLook(now: start, busy: false) == start.addingTimeInterval(60))
        #expect(log.lines(status(.receiving), now: start.addingTimeInterval(59)).isEmpty, "no change lines without -v")
        let due = log.lines(status(.receiving, stored: 3), now: start.addingTimeInterval(60))
        #expect(due == [PollerText.summary(status(.receiving, stored: 3), now: start.addingTimeInterval(60))])
        #expect(log.lines(status(.receiving), now: start.addingTimeInterval(61)).isEmpty, "the next one is a minute on")
        #expect(log.nextLook(now: start.addingTimeInterval(61), busy: false) == start.addingTimeInterval(120))
    }

    @Test func verboseLogsEachChangeOnceAndLooksOften() {
        var log = PollerLog(verbose: true, status: status(.connecting), now: start)
        #expect(log.nextLook(now: start, busy: false) == start.addingTimeInterval(PollerLog.lookEvery))
        #expect(log.lines(status(.receiving), now: start.addingTimeInterval(1)) == ["connected: receiving"])
        #expect(log.lines(status(.receiving), now: start.addingTimeInterval(2)).isEmpty, "no change, no line")
    }

    @Test func notificationsToSendMakeItLookOftenToo() {
        let log = PollerLog(verbose: false, status: status(.connecting), now: start)
        #expect(log.nextLook(now: start, busy: true) == start.addingTimeInterval(PollerLog.lookEvery))
        #expect(log.nextLook(now: start.addingTimeInterval(59.9), busy: true) == start.addingTimeInterval(60),
                "never later than the summary")
    }
}
