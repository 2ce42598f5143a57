import Testing
import TimelineCore
@testable import TimelineUI

@Suite("Unread marks and attention counts")
struct AttentionUITests {
    /// sampleRows with the newest error and one running task unread.
    private func unreadState() -> AppState {
        var rows = sampleRows()
        for i in rows.indices where rows[i].event.status == .error || rows[i].taskID == "T-101" { rows[i].unread = true }
        return loadedState(rows, width: 80, height: 24) {
            $0.attention = AttentionCounts(unreadErrors: 1, waiting: 0)
        }
    }

    @Test func unreadRowsAreBoldWithAMarkAndTheHeaderCountsThem() {
        GoldenScreen.check(render(unreadState(), width: 80, height: 24), "80x24-unread")
    }

    @Test func spaceMarksTheSelectedTaskReadOnScreenAndInTheStoreAndPagesOn() throws {
        var s = unreadState()
        let row = try #require(s.selectedRow)
        #expect(row.unread)
        #expect(reduce(&s, .key(.char(" "))) == [.markRead(taskID: row.taskID, seq: row.seq)])
        #expect(s.window.first { $0.taskID == row.taskID }?.unread == false)
        #expect(s.selectedRow?.taskID == "T-107", "paged to the last row")
        #expect(reduce(&s, .key(.char(" "))).isEmpty, "already read, nothing further: nothing to store")
    }

    /// Every row unread (a fresh demo): each Space still pages, marking the task it leaves read.
    @Test func spacePagesWhenEveryRowIsUnread() {
        let rows = (1...40).map { i -> TimelineRow in
            var row = makeRow("T\(i)", "task \(i)", secondsAgo: Int64(1000 - i), seq: Int64(i))
            row.unread = true
            return row
        }
        var d = SyncDriver(InMemoryTimeline(rows), width: 80, height: 12)
        #expect(d.state.selectedRow?.taskID == "T40")
        #expect(d.send(.key(.char(" "))).first == .markRead(taskID: "T40", seq: 40))
        #expect(d.state.selectedRow?.taskID == "T30")
        #expect(d.state.window.first { $0.taskID == "T40" }?.unread == false)
        #expect(d.send(.key(.char(" "))).first == .markRead(taskID: "T30", seq: 30))
        #expect(d.state.selectedRow?.taskID == "T20")
        #expect(d.state.selectedRow?.unread == true, "not looked at yet")
    }

    @Test func openingTheDetailMarksItReadOnceTheHistoryIsShown() throws {
        var s = unreadState()
        let row = try #require(s.selectedRow)
        #expect(reduce(&s, .key(.enter)) == [.loadHistory(taskID: row.taskID)])
        let effects = reduce(&s, .historyLoaded(HistoryResult(taskID: row.taskID, row: row, events: [row.event])))
        #expect(effects == [.markRead(taskID: row.taskID, seq: row.seq)])
        #expect(s.window.first { $0.taskID == row.taskID }?.unread == false)
        #expect(s.attention?.unreadErrors == (row.event.status == .error ? 0 : 1))
        // A reload of an already-read row stores nothing (no write → change → reload loop).
        var read = row
        read.unread = false
        #expect(reduce(&s, .historyLoaded(HistoryResult(taskID: row.taskID, row: read, events: [row.event]))).isEmpty)
    }

    @Test func capitalUMarksEverythingRead() {
        var s = unreadState()
        #expect(reduce(&s, .key(.char("U"))) == [.markAllRead])
        #expect(s.window.allSatisfy { !$0.unread })
        #expect(s.attention == AttentionCounts(unreadErrors: 0, waiting: 0))
    }

    @Test func waitingTasksAreCountedInTheHeaderWithTheirKey() {
        var s = unreadState()
        _ = reduce(&s, .attention(AttentionCounts(unreadErrors: 2, waiting: 3)))
        let header = render(s, width: 120, height: 10).line(0)
        #expect(header.contains("• 2 unread errors  ? 3 need you (i)"))
        #expect(!header.contains("waiting"))
    }

    /// The per-status count and the attention count say the same thing: the header says it once.
    @Test func waitingIsSaidOnce() {
        let rows = [makeRow("T-1", "Deploy?", status: .needsInput, secondsAgo: 5, seq: 2),
                    makeRow("T-2", "Approve?", status: .needsInput, secondsAgo: 9, seq: 1)]
        var s = loadedState(rows, width: 120, height: 10)
        _ = reduce(&s, .attention(AttentionCounts(unreadErrors: 0, waiting: 2)))
        for width in [120, 80] {
            let header = render(s, width: width, height: 10).line(0)
            #expect(header.components(separatedBy: "need you").count == 2, "\(header)")
            #expect(header.contains("? 2 need you (i)"))
            #expect(!header.contains("waiting"))
        }
        GoldenScreen.check(render(s, width: 80, height: 10), "80x10-need-you")
    }
}
