import TestSupport
import Testing
@testable import TimelineUI

@Suite("Screen diff")
struct ScreenDiffTests {
    private func screen(_ lines: [String], width: Int = 8, style: Style = .plain) -> Screen {
        var s = Screen(width: width, height: lines.count)
        for (y, line) in lines.enumerated() { s.put(line, x: 0, y: y, style: style) }
        return s
    }

    /// Where the runs put their cells: the previous screen with every run written over it.
    private func apply(_ runs: [ScreenRun], to previous: Screen) -> Screen {
        var out = previous
        for run in runs {
            for (i, cell) in run.cells.enumerated() { out[run.x + i, run.y] = cell }
        }
        return out
    }

    @Test func withoutAPreviousScreenEveryLineIsDrawnInFull() {
        let next = screen(["ab", "cd"], width: 3)
        let runs = next.diff(from: nil)
        #expect(runs.map(\.y) == [0, 1])
        #expect(runs.allSatisfy { $0.x == 0 && $0.cells.count == 3 })
        #expect(runs[1].cells.map(\.character) == ["c", "d", " "])
    }

    @Test func aSizeChangeRedrawsEverything() {
        let before = screen(["abc"], width: 4)
        let after = screen(["abc"], width: 5)
        #expect(after.redrawsFully(from: before) && after.redrawsFully(from: nil) && !after.redrawsFully(from: after))
        #expect(after.diff(from: before) == after.diff(from: nil))
        #expect(after.diff(from: before).count == 1 && after.diff(from: before)[0].cells.count == 5)
    }

    @Test func anUnchangedScreenDrawsNothing() {
        let s = screen(["hello", "部品 ok"])
        #expect(s.diff(from: s).isEmpty)
    }

    @Test func onlyChangedCellsAreDrawnAndNeighboursMerge() {
        let before = screen(["abcdefgh", "abcdefgh"])
        let after = screen(["aXcdeYZh", "abcdefgh"])
        let runs = after.diff(from: before)
        #expect(runs == [
            ScreenRun(x: 1, y: 0, cells: [after[1, 0]]),
            ScreenRun(x: 5, y: 0, cells: [after[5, 0], after[6, 0]]),
        ])
    }

    @Test func aStyleChangeAloneIsAChange() {
        let before = screen(["abc"], width: 3)
        var after = before
        after.put("b", x: 1, y: 0, style: Style(bold: true))
        #expect(after.diff(from: before) == [ScreenRun(x: 1, y: 0, cells: [after[1, 0]])])
    }

    @Test func aWideGraphemeIsDrawnWithItsContinuation() {
        let before = screen(["abcd"], width: 4)
        let after = screen(["a部d"], width: 4)
        let runs = after.diff(from: before)
        #expect(runs == [ScreenRun(x: 1, y: 0, cells: [after[1, 0], after[2, 0]])])
        #expect(runs[0].cells[1].isContinuation)
    }

    @Test func aChangedContinuationRedrawsItsWholeGrapheme() {
        let before = screen(["a部d"], width: 4)
        var after = before
        after[2, 0] = Cell(character: " ", width: 0, style: Style(underline: true))
        let runs = after.diff(from: before)
        #expect(runs == [ScreenRun(x: 1, y: 0, cells: [after[1, 0], after[2, 0]])])
    }

    @Test func narrowTextOverAWideGraphemeRedrawsBothColumns() {
        let before = screen(["a部d"], width: 4)
        let after = screen(["axyd"], width: 4)
        #expect(after.diff(from: before) == [ScreenRun(x: 1, y: 0, cells: [after[1, 0], after[2, 0]])])
    }

    /// Random edits (narrow, wide and styled text): the runs always rebuild the new screen from the old one,
    /// and no run starts on the second half of a wide grapheme.
    @Test func runsAlwaysRebuildTheNewScreen() {
        var generator = SplitMix64(seed: 7)
        let texts = ["a", "xyz", "部", "品質", "🚀", "e\u{301}", " ", "全角 ok"]
        let styles = [Style.plain, Style(bold: true), Style(fg: .error), Style(bg: .selection, reverse: true)]
        func random(_ n: Int) -> Int { Int(generator.next() % UInt64(n)) }
        var current = Screen(width: 13, height: 4)
        for _ in 0..<500 {
            var next = current
            for _ in 0..<(1 + random(4)) {
                next.put(texts[random(texts.count)], x: random(14) - 1, y: random(4), style: styles[random(styles.count)])
            }
            let runs = next.diff(from: current)
            #expect(apply(runs, to: current) == next)
            #expect(runs.allSatisfy { !$0.cells[0].isContinuation })
            #expect(runs.allSatisfy { run in run.cells.indices.contains { current[run.x + $0, run.y] != run.cells[$0] } })
            current = next
        }
    }
}
