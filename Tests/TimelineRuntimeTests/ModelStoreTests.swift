import Foundation
import Testing
import TimelineCore
import TimelineRuntime
import TimelineStore
@testable import TimelineUI

@Suite("Model against a real store")
struct ModelStoreTests {
    @Test func followShowsNewestFirstAndNewEventsAtTop() throws {
        let h = try StoreHarness()
        for i in 1...5 { try h.publish("T\(i)", secondsAgo: Int64(100 - i)) }
        h.start()
        #expect(h.state.mode == .follow)
        #expect(h.visibleTasks == ["T5", "T4", "T3", "T2", "T1"])
        #expect(h.state.counts.total == 5)
        try h.publish("T6", secondsAgo: 10)
        h.storeChanged()
        #expect(h.visibleTasks.first == "T6")
        #expect(h.selectedTask == "T6")
        #expect(positionText(h.state) == "row 1 of 6")
    }

    @Test func movingSelectionEntersBrowseAndHoldsPlaceWhileEventsArrive() throws {
        let h = try StoreHarness(height: 12)
        for i in 1...30 { try h.publish("T\(i)", secondsAgo: Int64(1000 - i)) }
        h.start()
        h.press(.char("j"), .char("j"), .char("j"))
        #expect(h.state.mode == .browse)
        #expect(h.selectedTask == "T27")
        let line = h.state.selectedLine
        let before = h.visibleTasks
        for i in 31...34 { try h.publish("T\(i)", secondsAgo: Int64(1000 - i)) }
        h.storeChanged()
        #expect(h.selectedTask == "T27")
        #expect(h.state.selectedLine == line)
        #expect(h.visibleTasks == before)
        #expect(h.state.counts.newSinceBrowse == 4)
        #expect(h.state.selectedPosition == 7)
        // f returns to FOLLOW with the newest on top.
        h.press(.char("f"))
        #expect(h.state.mode == .follow)
        #expect(h.visibleTasks.first == "T34")
        #expect(h.state.counts.newSinceBrowse == 0)
    }

    @Test func browseHoldsPlaceEvenWhenEveryTaskFitsOnScreen() throws {
        let h = try StoreHarness(height: 30)
        for i in 1...8 { try h.publish("T\(i)", secondsAgo: Int64(1000 - i)) }
        h.start()
        h.press(.char("j"), .char("j"), .char("j"))
        #expect(h.selectedTask == "T5")
        let line = h.state.selectedLine
        let before = h.visibleTasks
        for i in 9...11 { try h.publish("T\(i)", secondsAgo: Int64(1000 - i)) }
        h.storeChanged()
        // The new rows wait above (counted), instead of pushing the selected row down.
        #expect(h.selectedTask == "T5")
        #expect(h.state.selectedLine == line)
        #expect(h.visibleTasks == before)
        #expect(h.state.counts.newSinceBrowse == 3)
        // Moving again brings them into view as usual.
        h.press(.char("k"))
        #expect(h.selectedTask == "T6")
        #expect(h.visibleTasks.first == "T11")
    }

    @Test func upsertMovesTaskToTopInFollow() throws {
        let h = try StoreHarness()
        for i in 1...5 { try h.publish("T\(i)", secondsAgo: Int64(100 - i)) }
        h.start()
        try h.publish("T2", "T2 finished", status: .success, secondsAgo: 1)
        h.storeChanged()
        #expect(h.visibleTasks == ["T2", "T5", "T4", "T3", "T1"])
        #expect(h.state.window[0].event.title == "T2 finished")
        #expect(h.state.counts.total == 5)
    }

    @Test func upsertOfOtherTaskInBrowseDoesNotMoveTheView() throws {
        let h = try StoreHarness(height: 12)
        for i in 1...20 { try h.publish("T\(i)", secondsAgo: Int64(1000 - i)) }
        h.start()
        h.press(.char("j"), .char("j"), .char("j"), .char("j"))
        #expect(h.selectedTask == "T16")
        let line = h.state.selectedLine
        // A task below the selection moves to the top: the selection stays on its line.
        try h.publish("T5", "T5 again", secondsAgo: 1)
        h.storeChanged()
        #expect(h.selectedTask == "T16")
        #expect(h.state.selectedLine == line)
        #expect(h.state.counts.newSinceBrowse == 1)
        // The selected task itself moves to the top: the view stays, the row in its place is selected.
        let below = h.visibleTasks[line + 1]
        try h.publish("T16", "T16 moved", secondsAgo: 0)
        h.storeChanged()
        #expect(h.state.selectedLine == line)
        #expect(h.selectedTask == below)
        h.press(.char("f"))
        #expect(h.visibleTasks.prefix(2) == ["T16", "T5"])
    }

    @Test func searchFiltersWithQualifiers() throws {
        let h = try StoreHarness()
        try h.publish("D1", "Deploy api to prod", status: .success, agent: "deployer", category: "deploy", secondsAgo: 50)
        try h.publish("D2", "deploy web", status: .error, agent: "deployer", category: "deploy", secondsAgo: 40)
        try h.publish("R1", "Review PR", status: .info, agent: "reviewer", category: "review", secondsAgo: 30,
                      body: "needs a redeploy afterwards")
        try h.publish("B1", "Build", status: .error, agent: "builder", secondsAgo: 20)
        h.start()
        h.press(.char("/"))
        h.type("deploy")
        #expect(Set(h.visibleTasks) == ["D1", "D2", "R1"])
        #expect(h.state.search.matchCount == 3)
        h.type(" status:error")
        #expect(h.visibleTasks == ["D2"])
        h.press(.ctrl("u"))
        h.type("agent:build")
        #expect(h.visibleTasks == ["B1"])
        h.press(.ctrl("u"))
        h.type("category:review")
        #expect(h.visibleTasks == ["R1"])
        h.press(.enter)
        #expect(!h.state.search.promptOpen)
        #expect(h.visibleTasks == ["R1"])
        h.press(.escape)
        #expect(h.state.search.text.isEmpty)
        #expect(h.visibleTasks.count == 4)
    }

    @Test func highlightModeKeepsEveryTaskAndNJumpsBetweenMatches() throws {
        let h = try StoreHarness(height: 8)
        for i in 1...20 {
            try h.publish("T\(i)", i % 5 == 0 ? "needle \(i)" : "hay \(i)", secondsAgo: Int64(1000 - i))
        }
        h.start()
        h.press(.char("/"))
        h.type("needle")
        h.press(.tab)
        #expect(h.state.search.kind == .highlight)
        #expect(h.state.counts.total == 20)
        #expect(h.state.search.matchCount == 4)
        // Typing in highlight mode moved to the first match below the (non-matching) selection.
        #expect(h.selectedTask == "T20")
        h.press(.enter)
        h.press(.char("n"))
        #expect(h.selectedTask == "T15")
        h.press(.char("n"), .char("n"))
        #expect(h.selectedTask == "T5")
        h.press(.char("n"))
        #expect(h.selectedTask == "T20")
        #expect(h.state.search.notice == "search wrapped")
        h.press(.char("N"))
        #expect(h.selectedTask == "T5")
        let rendered = render(h.state, width: 80, height: 8)
        #expect(rendered.line(0).contains("highlight: needle"))
    }

    @Test func windowIsBoundedAndPositionsAreExactAcrossPaging() throws {
        let h = try StoreHarness(height: 12)
        let n = 500
        _ = try h.writer.ingest((1...n).map { i in
            .event(Event(id: "e\(i)", agentID: "a", taskID: String(format: "T%03d", i), title: "t\(i)", status: .info,
                         timestampMicros: fixedNow - Int64(n - i) * 1_000_000, rawJSON: "{}"), messageID: nil)
        })
        h.start()
        let page = h.state.listHeight
        for step in 1...60 {
            h.press(.pageDown)
            let expected = min(n - 1, step * page)
            #expect(h.state.selectedPosition == expected)
            #expect(h.selectedTask == String(format: "T%03d", n - expected))
            #expect(h.state.window.count <= 5 * page + 8)  // a page, a margin and a refill slack each side
        }
        #expect(h.state.selectedPosition == n - 1)
        #expect(positionText(h.state) == "row 500 of 500")
        h.press(.char("g"), .char("g"))
        #expect(h.state.mode == .follow)
        #expect(h.selectedTask == "T500")
        h.press(.char("G"))
        #expect(h.selectedTask == "T001")
        #expect(h.state.selectedPosition == n - 1)
        #expect(h.visibleTasks.count == page)
        h.press(.pageUp)
        #expect(h.state.selectedPosition == n - 1 - page)
        h.press(.home)
        #expect(h.state.selectedPosition == 0)
        h.press(.ctrl("d"))
        #expect(h.state.selectedPosition == page / 2)
        h.press(.ctrl("u"))
        #expect(h.state.selectedPosition == 0)
    }

    @Test func statusTogglesAndErrorWarningJumps() throws {
        let h = try StoreHarness(height: 10)
        let statuses: [Status] = [.info, .error, .success, .warning, .inProgress, .error, .info, .warning]
        for (i, st) in statuses.enumerated() { try h.publish("T\(i)", status: st, secondsAgo: Int64(100 - i)) }
        h.start()
        h.press(.char("5"))
        #expect(h.visibleTasks == ["T5", "T1"])
        #expect(h.state.counts.perStatus[.info] == 2)
        h.press(.char("4"))
        #expect(h.visibleTasks == ["T7", "T5", "T3", "T1"])
        h.press(.char("0"))
        #expect(h.visibleTasks.count == 8)
        h.press(.char("e"))
        #expect(h.selectedTask == "T5")
        h.press(.char("e"))
        #expect(h.selectedTask == "T1")
        h.press(.char("w"))
        #expect(h.selectedTask == "T7")
        #expect(h.state.search.notice == "search wrapped")
        // Search status and toggles that exclude each other match nothing, without a store query.
        h.press(.char("/"))
        h.type("status:info")
        h.press(.enter, .char("5"))
        #expect(h.state.window.isEmpty)
        let screen = render(h.state, width: 80, height: 10)
        #expect((0..<10).contains { screen.line($0).contains("No tasks match") })
    }

    @Test func otherConnectionsWritesAreNoticedThroughChangeToken() throws {
        let h = try StoreHarness()
        try h.publish("T1", secondsAgo: 10)
        h.start()
        h.tick(by: 300_000)
        try h.publish("T2", secondsAgo: 5)
        for _ in 0..<20 where h.visibleTasks.first != "T2" {
            h.tick(by: 300_000)
            _ = h.controller.drain()
            Thread.sleep(forTimeInterval: 0.02)
            h.settle()
        }
        #expect(h.visibleTasks == ["T2", "T1"])
    }

    @Test func detailShowsHistoryNewestFirst() throws {
        let h = try StoreHarness(width: 80, height: 24)
        try h.publish("T1", "queued", secondsAgo: 30)
        try h.publish("T1", "running", status: .inProgress, secondsAgo: 20)
        try h.publish("T1", "late old event", status: .info, secondsAgo: 40)
        try h.publish("T1", "done", status: .success, secondsAgo: 10)
        h.start()
        h.press(.enter)
        let d = try #require(h.state.detail)
        #expect(d.history.map(\.title) == ["done", "running", "queued", "late old event"])
        let screen = render(h.state, width: 80, height: 24)
        #expect((0..<24).contains { screen.line($0).contains("History · 4 events") })
        h.press(.escape)
        #expect(h.state.detail == nil)
    }

    @Test func clickSelectsAndWheelScrolls() throws {
        let h = try StoreHarness(height: 12)
        for i in 1...30 { try h.publish("T\(i)", secondsAgo: Int64(1000 - i)) }
        h.start()
        h.send(.mouse(.click(x: 10, y: 4)))
        #expect(h.selectedTask == "T27")
        #expect(h.state.mode == .browse)
        h.send(.mouse(.wheelDown(x: 10, y: 4)))
        #expect(h.selectedTask == "T24")
        h.send(.mouse(.wheelUp(x: 10, y: 4)))
        #expect(h.selectedTask == "T27")
    }
}
