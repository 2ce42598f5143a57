import Foundation
import TestSupport
import Testing
import TimelineCore
import TimelineRuntime
@testable import TimelineUI

@Suite("Robustness against a real store")
struct StoreRobustnessTests {
    /// Random keys, mouse events, resizes and concurrent writes against a real store: the selection
    /// always stays inside the window and on screen, and the selected row is the one at its position.
    @Test func randomInputKeepsTheModelConsistent() throws {
        let h = try StoreHarness(width: 90, height: 14)
        var generator = SplitMix64(seed: 42)
        _ = try h.writer.ingest((1...300).map { i in
            .event(Event(id: "e\(i)", agentID: "agent-\(i % 7)", taskID: "T\(i)", title: i % 9 == 0 ? "needle \(i)" : "hay \(i)",
                         status: Status.allCases[i % 5], timestampMicros: fixedNow - Int64(10_000 - i) * 1_000_000,
                         rawJSON: "{}"), messageID: nil)
        })
        h.start()
        let keys: [Key] = [.char("j"), .char("k"), .down, .up, .pageDown, .pageUp, .ctrl("d"), .ctrl("u"), .char("g"),
                           .char("G"), .home, .end, .char("f"), .enter, .escape, .char("/"), .char("n"), .char("e"),
                           .char("N"), .char("w"), .tab, .backspace, .char("1"), .char("5"), .char("0"), .char("t"),
                           .char("?"), .char("J"), .char("K"), .char("x"), .char("d"), .enter]
        var next = 10_000
        for step in 0..<1_500 {
            switch generator.next() % 20 {
            case 0:
                next += 1
                let task = "T\(Int(generator.next() % 320) + 1)"
                _ = try h.writer.ingest([.event(Event(id: "n\(next)", agentID: "late", taskID: task, title: "update \(next)",
                                                      status: .inProgress, timestampMicros: fixedNow + Int64(next) * 1_000,
                                                      rawJSON: "{}"), messageID: nil)])
                h.controller.send(.storeChanged)
            case 1:
                h.controller.send(.resize(width: 40 + Int(generator.next() % 140), height: 5 + Int(generator.next() % 40)))
            case 2:
                h.controller.send(.mouse(.click(x: 5, y: Int(generator.next() % 16))))
            case 3:
                h.controller.send(.mouse(generator.next() % 2 == 0 ? .wheelUp(x: 3, y: 3) : .wheelDown(x: 3, y: 3)))
            default:
                h.controller.send(.key(keys[Int(generator.next() % UInt64(keys.count))]))
            }
            if step % 3 == 0 { h.settle() }
            let s = h.state
            if !s.window.isEmpty {
                #expect(s.window.indices.contains(s.selected))
                #expect(s.selectedLine >= 0 && s.selectedLine < s.listHeight && s.selectedLine <= s.selected)
                let screen = render(s, width: s.width, height: s.height)
                #expect(screen.width == s.width)
            }
            if s.quitRequested { break }
        }
        h.settle()
        let s = h.state
        if let row = s.selectedRow, !s.positionStale {
            // The position shown is the row's true position in the list.
            var q = s.listQuery
            if s.listMatchesNothing { q = TimelineQuery() }
            #expect(try h.writer.countNewer(than: row.key, matching: q) == s.selectedPosition)
        }
    }
}
