import Foundation
import Testing
import TimelineCore
@testable import TimelineUI

@Suite struct DetailFoldTests {
    /// A 900 KB body: folded to its first screen (only a prefix is wrapped), `z` expands it once into the
    /// state, scrolling reuses those lines, `z` folds again.
    @Test func longBodyFoldsExpandsAndFoldsAgain() throws {
        let body = (1...12_000).map { "line \($0): " + String(repeating: "x", count: 60) }.joined(separator: "\n")
        #expect(body.utf8.count > 800_000)
        var rows = sampleRows()
        rows[0] = makeRow("T-101", "Huge report", secondsAgo: 12, body: body, seq: 40)
        var s = loadedState(rows, width: 80, height: 24)
        _ = reduce(&s, .key(.enter))
        _ = reduce(&s, .historyLoaded(HistoryResult(taskID: "T-101", row: rows[0], events: [rows[0].event])))

        let folded = DetailLayout.lines(s, width: DetailLayout.contentWidth(s)).map { $0.segments.map(\.0).joined() }
        #expect(folded.count < 60)
        #expect(folded.contains("line 1: " + String(repeating: "x", count: 60)))
        #expect(!folded.contains { $0.hasPrefix("line 23:") })
        let note = try #require(folded.first { $0.contains("z: expand") })
        #expect(note.hasPrefix("… ") && note.contains("KB more"))
        #expect(s.detail?.unfolded == nil)

        _ = reduce(&s, .key(.char("z")))
        let unfolded = try #require(s.detail?.unfolded)
        #expect(unfolded.body.count == 12_000)
        let expanded = DetailLayout.lines(s, width: DetailLayout.contentWidth(s)).map { $0.segments.map(\.0).joined() }
        #expect(expanded.contains("line 12000: " + String(repeating: "x", count: 60)))
        #expect(!expanded.contains { $0.contains("z: expand") })

        _ = reduce(&s, .key(.char("G")))
        #expect(s.detail?.unfolded == unfolded, "scrolling reuses the wrapped lines")
        #expect((s.detail?.scroll ?? 0) > 11_900)
        // A resize re-wraps once, for the new width.
        _ = reduce(&s, .resize(width: 60, height: 24))
        #expect(s.detail?.unfolded?.width == DetailLayout.contentWidth(s))

        _ = reduce(&s, .key(.char("z")))
        #expect(s.detail?.unfolded == nil && s.detail?.expanded == false)
        #expect(s.detail?.scroll ?? 0 < 60, "folding clamps the scroll to the shorter content")
    }

    /// Short bodies are never folded.
    @Test func shortBodyIsShownWhole() {
        let (lines, hidden) = DetailFold.lines("one\ntwo", width: 40, screen: 5, expanded: false, cached: nil)
        #expect(lines == ["one", "two"] && hidden == nil)
        let (cut, more) = DetailFold.lines(String(repeating: "a\n", count: 10), width: 40, screen: 5, expanded: false, cached: nil)
        #expect(cut.count == 5 && more != nil)
        #expect(DetailFold.sizeText(999) == "999 B" && DetailFold.sizeText(873_400) == "873 KB" && DetailFold.sizeText(1_048_576) == "1.0 MB")
    }

    /// The queue delay and a message received 3 times or more are shown in the detail and the status bar.
    @Test func queueDelayAndRedeliveriesAreShown() {
        var rows = sampleRows()
        var event = rows[0].event
        event.delivery = QueueDelivery(sentMicros: rows[0].receivedMicros - 1_250_000, receiveCount: 4)
        rows[0].event = event
        var s = loadedState(rows, width: 100, height: 30)
        _ = reduce(&s, .key(.enter))
        let text = (0..<30).map { render(s, width: 100, height: 30).line($0) }.joined(separator: "\n")
        #expect(text.contains("Queue      waited 1.25s in the queue · received 4 times ⚠"))
        _ = reduce(&s, .pollerStatus(PollerStatusView(state: .receiving, receivedManyTimes: 2)))
        #expect(render(s, width: 100, height: 30).line(29).contains("⚠ 2 messages received 3+ times"))
    }
}
