import Testing
@testable import TimelineUI

@Suite("Screen grid")
struct ScreenGridTests {
    @Test func wideCharactersOccupyTwoCellsAndNeverStraddleTheEdge() {
        var screen = Screen(width: 5, height: 1)
        let used = screen.put("a部b部", x: 0, y: 0, style: .plain)
        #expect(used == 5)
        #expect(screen.line(0) == "a部b ")
        #expect(screen[1, 0].width == 2 && screen[2, 0].isContinuation)
        // Overwriting half of a wide character clears the other half.
        screen.put("x", x: 2, y: 0, style: .plain)
        #expect(screen[1, 0].character == " " && screen[1, 0].width == 1)
        #expect(screen.line(0) == "a xb ")
    }

    @Test func limitClipsText() {
        var screen = Screen(width: 10, height: 1)
        #expect(screen.put("hello world", x: 2, y: 0, style: .plain, limit: 4) == 4)
        #expect(screen.line(0) == "  hell    ")
    }

    @Test func everyRenderedRowIsExactlyTheScreenWidth() {
        for width in [20, 33, 61, 80, 119, 160, 200] {
            let rows = sampleRows() + [makeRow("W", "全角文字🚀👨‍👩‍👧 mixed ünïcödé", status: .error, agent: "エージェント",
                                               category: "カテゴリ", secondsAgo: 1, seq: 99)]
            let s = loadedState(rows, width: width, height: 12)
            let screen = render(s, width: width, height: 12)
            for y in 0..<12 {
                let columns = (0..<width).reduce(0) { $0 + (screen[$1, y].isContinuation ? 0 : Int(screen[$1, y].width)) }
                #expect(columns == width, "width \(width) line \(y)")
            }
        }
    }
}
