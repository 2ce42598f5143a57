import Foundation
import Testing
import TimelineCore
import TimelineRuntime
@testable import TimelineUI

/// What lets the terminal loop sleep until there is something to show: the wake handler runs when a
/// result is queued, and `checkForChangesNow` notices another connection's commit without the throttled
/// `pollBackground` check.
@Suite("Wake-ups")
struct WakeUpTests {
    @Test func aCommitReportedNowIsLoadedAndWakesTheLoop() throws {
        let h = try StoreHarness()
        try h.publish("T1", secondsAgo: 50)
        h.start()
        let woken = DispatchSemaphore(value: 0)
        h.controller.setWakeHandler { woken.signal() }
        // Far beyond any test's length: only `checkForChangesNow` can notice the commit.
        h.controller.changeCheckInterval = .max
        h.controller.pollBackground(nowMicros: fixedNow)
        try h.publish("T2", secondsAgo: 10)
        h.controller.checkForChangesNow()
        #expect(woken.wait(timeout: .now() + 10) == .success, "the change check's result wakes the loop")
        h.settle()
        #expect(h.visibleTasks == ["T2", "T1"])
    }

    @Test func withoutAReportTheThrottledCheckWaits() throws {
        let h = try StoreHarness()
        try h.publish("T1", secondsAgo: 50)
        h.start()
        h.controller.changeCheckInterval = .max
        try h.publish("T2", secondsAgo: 10)
        h.controller.pollBackground(nowMicros: fixedNow)
        h.settle()
        #expect(h.visibleTasks == ["T1"], "not looked for yet")
        h.controller.checkForChangesNow()
        h.settle()
        #expect(h.visibleTasks == ["T2", "T1"])
    }
}
