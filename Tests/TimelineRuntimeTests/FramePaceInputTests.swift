import Foundation
import Synchronization
import Testing
import TimelineCore
import TestSupport
import TimelineStore
@testable import TimelineRuntime
@testable import TimelineUI

/// What the terminal loop needs from the controller to pace frames: commits in this process wake it once
/// until it takes them (it checks the store at its own pace), and drained results say whether they answer
/// the user (drawn at once) or only follow the store (drawn at the frame pace).
@Suite("Frame pacing inputs")
struct FramePaceInputTests {
    @Test func commitsInThisProcessWakeALoopOnceUntilItTakesThem() throws {
        let h = try StoreHarness()
        try h.publish("T1", secondsAgo: 50)
        h.start()
        h.controller.changeCheckInterval = .max
        let wakes = Atomic(0)
        h.controller.setWakeHandler { wakes.add(1, ordering: .relaxed) }
        try h.publish("T2", secondsAgo: 10)
        for _ in 0..<3 { h.controller.storeWritten() }
        #expect(wakes.load(ordering: .relaxed) == 1, "a burst of commits is one wake")
        h.settle()
        #expect(h.visibleTasks == ["T1"], "the loop decides when to look")
        #expect(h.controller.takeStoreWrites())
        #expect(!h.controller.takeStoreWrites(), "taken once")
        h.controller.storeWritten()
        #expect(wakes.load(ordering: .relaxed) == 2, "the next commit wakes again")
        h.controller.checkForChangesNow()
        h.settle()
        #expect(h.visibleTasks == ["T2", "T1"])
    }

    @Test func withoutALoopACommitIsLookedAtNow() throws {
        let h = try shownT1ThenT2Written()
        h.controller.storeWritten()
        h.settle()
        #expect(h.visibleTasks == ["T2", "T1"])
    }

    @Test func aStoreReloadIsBackgroundAndASearchTypedIsAnAnswer() throws {
        let h = try shownT1ThenT2Written()
        h.controller.checkForChangesNow()
        #expect(drainedUntilSettled(h) == [.incidental, .background], "the store change and its counts, and its rows")
        #expect(h.visibleTasks == ["T2", "T1"])
        h.controller.send(.key(.char("/")))
        h.controller.send(.key(.char("T")))
        h.controller.send(.key(.char("2")))
        #expect(drainedUntilSettled(h) == [.answers])
        #expect(h.visibleTasks == ["T2"])
    }

    @Test func aCommitOfThisProcessReloadsWithoutAChangeCheckAndItsWALWriteFindsNothingNew() throws {
        let h = try shownT1ThenT2Written()
        h.controller.reloadAfterOwnCommit()
        #expect(h.controller.drainResults() == .incidental, "the reload starts at once, not after a read-lane check")
        h.settle()
        #expect(h.visibleTasks == ["T2", "T1"])
        h.controller.checkForChangesNow()  // what the commit's WAL write (inotify) causes a frame later
        #expect(drainedUntilSettled(h).isEmpty, "the reload took the change token: no second reload")
        #expect(h.visibleTasks == ["T2", "T1"])
    }

    @Test func thePollersStatusCountsAStoreChangeAndRowsAlreadyShownAreIncidentalAndNewRowsAreNot() throws {
        let status = Mutex(PollerStatusView(state: .receiving))
        let h = try StoreHarness(pollerStatus: { status.withLock { $0 } })
        try h.publish("T1", secondsAgo: 50)
        h.start()
        h.controller.changeCheckInterval = .max
        h.settle()
        status.withLock { $0.storedCount = 1 }
        h.controller.pollBackground(nowMicros: fixedNow)
        #expect(h.controller.drainResults() == .incidental, "a frame of the poller's status may wait for the store's")
        try h.publish("T2", secondsAgo: 10)
        h.controller.reloadAfterOwnCommit()
        #expect(h.controller.drainResults() == .incidental, "nothing to show before the reload's rows")
        var outcome = DrainedResults.none
        let deadline = Date().addingTimeInterval(10)
        while h.visibleTasks != ["T2", "T1"], Date() < deadline {
            outcome = h.controller.drainResults()
            if outcome == .none { Thread.sleep(forTimeInterval: 0.001) }
        }
        #expect(h.visibleTasks == ["T2", "T1"])
        #expect(outcome == .background, "the drain that brought the rows")
        #expect(drainedUntilSettled(h).isSubset(of: [.incidental]), "then only the counts")
        #expect(h.state.counts.total == 2)
        h.controller.reloadAfterOwnCommit()  // a second reload of the same commit (a look that raced it)
        #expect(drainedUntilSettled(h) == [.incidental], "the rows already shown need no frame of their own")
        #expect(!Input.loadFailed("a read failed").isIncidental(to: h.state))
    }

    @Test func aStoreChangesRowsAndPinnedRowsAreDrainedTogether() throws {
        // The pinned row's read is held 50 ms, after the list's: the list's rows must not be handed over
        // (and drawn) without it.
        let directory = try TemporaryDirectory(prefix: "timeline-pinned-together")
        let path = directory.file("timeline.db")
        let writer = try TimelineStore(path: path)
        try publishNumbered(1, with: writer)
        try publishNumbered(2, with: writer)
        let holdRows = Atomic(false)
        let controller = TimelineController(
            state: AppState(width: 80, height: 12, nowMicros: fixedNow),
            makeReader: {
                ForwardingReader(try TimelineStore(path: path), before: { read, _, _ in
                    if read == .row, holdRows.load(ordering: .acquiring) { usleep(50_000) }
                })
            },
            countDebounce: 0)
        controller.start()
        try controller.settle(timeout: 30)
        controller.send(.key(.char("P")))  // pins T-2, the selected row
        try controller.settle(timeout: 30)
        #expect(controller.state.pinnedRows.map(\.taskID) == ["T-2"])
        holdRows.store(true, ordering: .releasing)

        try publishNumbered(3, with: writer)
        _ = try writer.ingest([.event(Event(id: "e2-again", agentID: "agent-1", taskID: "T-2", title: "task 2 again",
                                            body: "", status: .info, category: nil,
                                            timestampMicros: fixedNow + 4_000, rawJSON: "{}"), messageID: nil)])
        controller.reloadAfterOwnCommit()
        var outcome = DrainedResults.none
        let deadline = Date().addingTimeInterval(10)
        while outcome != .background, Date() < deadline {
            outcome = controller.drainResults()
            if outcome == .none { Thread.sleep(forTimeInterval: 0.001) }
        }
        #expect(outcome == .background)
        #expect(controller.state.window.prefix(2).map(\.taskID) == ["T-2", "T-3"],
                "the changed rows, in the first drain that brought any")
        #expect(controller.state.pinnedRows.first?.event.title == "task 2 again", "and the pinned row, read after them, with them")
        try controller.settle(timeout: 30)
    }

    /// A started controller showing T1 that checks the store only when told, and T2 written after it.
    private func shownT1ThenT2Written() throws -> StoreHarness {
        let h = try StoreHarness()
        try h.publish("T1", secondsAgo: 50)
        h.start()
        h.controller.changeCheckInterval = .max
        h.controller.pollBackground(nowMicros: fixedNow)
        h.settle()
        try h.publish("T2", secondsAgo: 10)
        return h
    }

    /// The distinct outcomes of `drainResults` until nothing arrived for a while (polled, not slept on:
    /// a result that arrives later is applied by `settle` and not counted).
    private func drainedUntilSettled(_ h: StoreHarness) -> Set<DrainedResults> {
        var seen: Set<DrainedResults> = []
        let deadline = Date().addingTimeInterval(10)
        var quiet = 0
        while Date() < deadline, quiet < 40 {
            let outcome = h.controller.drainResults()
            if outcome == .none {
                quiet += 1
                Thread.sleep(forTimeInterval: 0.005)
            } else {
                quiet = 0
                seen.insert(outcome)
            }
        }
        h.settle()
        return seen
    }
}

/// A store reload issued right after a key supersedes the key's load: its result is what the user waits
/// for, so it answers the user (drawn at once) in the key's place.
@Suite("Owed answers")
struct OwedAnswerTests {
    @Test func aSupersedingLoadAnswersTheUserOnce() {
        let tickets = Tickets()
        let key = tickets.issue(.window, answersUser: true)
        let reload = tickets.issue(.window)
        #expect(!tickets.isLatest(key, .window) && tickets.isLatest(reload, .window), "the key's load is skipped")
        let owed = tickets.takeOwed(.window)
        #expect(owed, "the reload's result answers the key")
        let again = tickets.takeOwed(.window)
        #expect(!again, "once")
        _ = tickets.issue(.counts)
        let background = tickets.takeOwed(.counts)
        #expect(!background, "a reload nobody waits for stays background")
    }
}
