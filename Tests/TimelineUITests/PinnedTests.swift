import Testing
import TimelineCore
@testable import TimelineUI

@Suite("Pinned tasks")
struct PinnedTests {
    @Test func aPinnedTaskIsDrawnFirstAndClicksStillSelectTheRowsBelow() {
        var d = SyncDriver(bindingFixture(), width: 80, height: 12)
        d.press(.char("j"), .char("j"), .char("j"))  // T37
        let effects = d.send(.key(.char("P")))
        #expect(effects.first == .setPins(["T37"]))
        #expect(d.state.pins == ["T37"])
        let screen = render(d.state, width: 80, height: 12)
        #expect(screen.line(1).contains("hay 37"), "\(screen.line(1))")
        #expect(screen.line(2).contains("pinned · P unpins"))
        #expect(screen.line(3).contains("needle 40") || screen.line(3).contains("hay"), "the list follows")
        GoldenScreen.check(screen, "80x12-pinned")
        // A click on the list's first line selects the list's first shown row, not the pinned one.
        let first = d.state.selected - d.state.selectedLine
        let expected = d.state.window[first].taskID
        d.send(.mouse(.click(x: 5, y: d.state.listTop)))
        #expect(d.state.selectedRow?.taskID == expected)
        d.send(.mouse(.click(x: 5, y: 1)))
        #expect(d.state.selectedRow?.taskID == expected, "the pinned row is no list row")
    }

    @Test func pinsAreRestoredAndUnpinned() {
        let store = bindingFixture()
        var state = AppState(width: 80, height: 12, nowMicros: fixedNow)
        state.pins = ["T3", "T20"]
        var d = SyncDriver(store, width: 80, height: 12, state: state)
        #expect(d.state.pinnedRows.map(\.taskID) == ["T3", "T20"])
        let screen = render(d.state, width: 80, height: 12)
        #expect(screen.line(1).contains("hay 3") && screen.line(2).contains("needle 20"))
        #expect(d.state.listHeight == 10 - 3)
        d.press(.char("j"))
        while d.state.selectedRow?.taskID != "T20" { d.press(.char("j")) }
        #expect(d.send(.key(.char("P"))).first == .setPins(["T3"]))
        #expect(d.state.pinnedRows.map(\.taskID) == ["T3"])
    }
}
