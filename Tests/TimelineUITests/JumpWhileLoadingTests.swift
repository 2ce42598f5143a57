import Foundation
import Testing
import TimelineCore
import TimelineRuntime
@testable import TimelineUI

/// The frames drawn between a jump key (Home, End) and the arrival of the rows it asked for: they show the
/// rows already on screen, never other rows under the new position (a frame a watcher would take for the
/// answer).
@Suite("Jumps while their rows load")
struct JumpWhileLoadingTests {
    /// 300 tasks, newest first: T299 … T0.
    private static func history() -> InMemoryTimeline {
        InMemoryTimeline((0..<300).map { makeRow("T\($0)", "task \($0)", secondsAgo: Int64(10_000 - $0), seq: Int64($0 + 1)) })
    }

    private static func visible(_ s: AppState) -> [String] {
        let top = s.selected - s.selectedLine
        return (0..<s.listHeight).compactMap { line in s.window.indices.contains(top + line) ? s.window[top + line].taskID : nil }
    }

    @Test func homeFromTheOldestKeepsTheScreenUntilTheNewestRowsArrive() throws {
        var d = SyncDriver(Self.history(), width: 80, height: 12)
        d.press(.end)
        #expect(Self.visible(d.state).last == "T0")
        let oldest = Self.visible(d.state)

        var s = d.state
        let effects = reduce(&s, .key(.home))
        #expect(s.mode == .follow)
        #expect(Self.visible(s) == oldest, "before the newest rows arrive, the rows on screen stay")

        for effect in effects {
            guard case .loadWindow = effect, let result = EffectExecutor.run(effect, on: d.store) else { continue }
            _ = reduce(&s, result)
        }
        #expect(Self.visible(s).first == "T299")
        #expect(s.selected == 0 && s.selectedLine == 0 && s.selectedPosition == 0)
    }

    @Test func homeWithTheNewestRowsLoadedMovesAtOnce() throws {
        var d = SyncDriver(Self.history(), width: 80, height: 12)
        d.press(.char("j"), .char("j"), .char("j"))
        #expect(d.state.mode == .browse && d.state.windowReachesNewest)
        var s = d.state
        _ = reduce(&s, .key(.home))
        #expect(s.selected == 0 && s.selectedLine == 0)
        #expect(Self.visible(s).first == "T299")
    }

    @Test func endFromTheNewestKeepsTheScreenUntilTheOldestRowsArrive() throws {
        let d = SyncDriver(Self.history(), width: 80, height: 12)
        let newest = Self.visible(d.state)
        var s = d.state
        _ = reduce(&s, .key(.end))
        #expect(s.mode == .browse)
        #expect(Self.visible(s) == newest)
    }
}

@Suite("Window answers that a newer load made stale")
struct StaleWindowTests {
    @Test func endsRowsArrivingAfterHomeAreDropped() throws {
        let store = InMemoryTimeline((0..<300).map { makeRow("T\($0)", "task \($0)", secondsAgo: Int64(10_000 - $0), seq: Int64($0 + 1)) })
        let d = SyncDriver(store, width: 80, height: 12)
        var s = d.state
        let end = reduce(&s, .key(.end))
        let home = reduce(&s, .key(.home))
        // End's rows arrive only now, after Home asked for the newest: they are not shown.
        for effect in end {
            guard case .loadWindow = effect, let result = EffectExecutor.run(effect, on: store) else { continue }
            _ = reduce(&s, result)
        }
        #expect(s.window.first?.taskID == "T299", "the screen still shows the newest rows")
        #expect(s.mode == .follow)
        for effect in home {
            guard case .loadWindow = effect, let result = EffectExecutor.run(effect, on: store) else { continue }
            _ = reduce(&s, result)
        }
        #expect(s.window.first?.taskID == "T299" && s.selected == 0)
    }
}

@Suite("A jump across a store change")
struct JumpAcrossStoreChangeTests {
    @Test func endStillArrivesWhenTheStoreChangesOnTheWay() throws {
        let store = InMemoryTimeline((0..<300).map { makeRow("T\($0)", "task \($0)", secondsAgo: Int64(10_000 - $0), seq: Int64($0 + 1)) })
        let d = SyncDriver(store, width: 80, height: 12)
        var s = d.state
        let end = reduce(&s, .key(.end))
        let changed = reduce(&s, .storeChanged)
        for effect in end + changed {
            guard case .loadWindow = effect, let result = EffectExecutor.run(effect, on: store) else { continue }
            _ = reduce(&s, result)
        }
        #expect(s.selectedRow?.taskID == "T0", "End is not undone by the reload a store change asks for")
        #expect(s.mode == .browse)
    }
}
