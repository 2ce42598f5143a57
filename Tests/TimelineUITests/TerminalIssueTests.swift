import Foundation
import Testing
import TimelineCore
import TimelineRuntime
@testable import TimelineUI

/// Terminal behaviour at the `reduce`/`render` level: bursts, FOLLOW by itself, `↑ N new`, poller errors, times,
/// the detail position, and golden screens in the C locale and at tiny sizes.
@Suite("Every terminal, locale and size")
struct TerminalIssueTests {
    static func rows(_ n: Int) -> InMemoryTimeline {
        InMemoryTimeline((1...n).map { i in makeRow("T\(i)", "task \(i)", secondsAgo: Int64(10_000 - i), seq: Int64(i)) })
    }

    @Test func aBurstOfMovesPastTheLoadedRowsIsAppliedWhole() {
        // 200 `j` arrive before any window load is answered (as from a held key): the controller answers
        // only the newest window request; every press still counts.
        var d = SyncDriver(Self.rows(300), width: 80, height: 12)
        var pending: [Effect] = []
        for _ in 0..<200 { pending += reduce(&d.state, .key(.char("j"))) }
        var rounds = 0
        while let window = pending.last(where: { if case .loadWindow = $0 { true } else { false } }), rounds < 50 {
            rounds += 1
            pending = EffectExecutor.run(window, on: d.store).map { reduce(&d.state, $0) } ?? []
        }
        #expect(d.state.selectedPosition == 200)
        #expect(d.state.selectedRow?.taskID == "T100")
    }

    @Test func backAtTheNewestRowFollowsAgainAndSaysSo() {
        var d = SyncDriver(Self.rows(40), width: 80, height: 12)
        d.press(.char("j"), .char("j"))
        #expect(d.state.mode == .browse)
        d.press(.char("k"))
        #expect(d.state.mode == .browse)
        d.press(.char("k"))
        #expect(d.state.mode == .follow)
        #expect(render(d.state, width: 80, height: 12).line(11).contains("back at the newest: FOLLOW"))
        d.send(.tick(nowMicros: fixedNow + Notice.seconds * 1_000_000))
        #expect(!render(d.state, width: 80, height: 12).line(11).contains("back at the newest"))
    }

    @Test func newCountNeverIncludesRowsOnScreen() {
        var d = SyncDriver(Self.rows(40), width: 80, height: 12)
        for _ in 0..<12 { d.press(.char("j")) }  // selection on row 13, the screen's top is row 3
        let top = d.state.selectedPosition - d.state.selectedLine
        #expect(top == 3)
        let creq = CountsRequest(generation: d.state.generation, listQuery: d.state.listQuery,
                                 statusQuery: d.state.statusCountQuery, matchQuery: nil, newerThan: nil)
        _ = reduce(&d.state, .countsLoaded(CountsResult(request: creq, total: 40, perStatus: [:], matchCount: nil, newCount: 5)))
        #expect(render(d.state, width: 80, height: 12).line(11).contains("↑ 3 new"))
        _ = reduce(&d.state, .countsLoaded(CountsResult(request: creq, total: 40, perStatus: [:], matchCount: nil, newCount: 2)))
        #expect(render(d.state, width: 80, height: 12).line(11).contains("↑ 2 new"))
    }

    /// The status bar shows the poller's own summary, the `!` overlay its whole explanation: neither is
    /// cut out of the other.
    @Test func pollerProblemShowsItsSummaryAndItsExplanation() {
        let problem = PollerProblem(
            summary: "queue jobs does not exist",
            explanation: "queue http://127.0.0.1:5000/123456789012/jobs does not exist "
                + "(AWS.SimpleQueueService.NonExistentQueue). Check the queue URL and the region")
        var s = loadedState([], width: 80, height: 24) { $0.poller = PollerStatusView(state: .stopped(problem)) }
        let status = render(s, width: 80, height: 24).line(23)
        #expect(status.contains("■ stopped: queue jobs does not exist"))
        #expect(status.contains("? help"))
        #expect(!status.contains("NonExistentQueue"))
        _ = reduce(&s, .key(.char("!")))
        let overlay = render(s, width: 80, height: 24).text
        #expect(overlay.contains("AWS.SimpleQueueService.NonExistentQueue") && overlay.contains("Check the queue URL"))
    }

    @Test func rKeyRestartsOnlyAStoppedPoller() {
        var s = loadedState(sampleRows(), width: 80, height: 24) { $0.poller = PollerStatusView(state: .connected) }
        #expect(reduce(&s, .key(.char("R"))) == [])
        _ = reduce(&s, .pollerStatus(PollerStatusView(state: .stopped(PollerProblem(summary: "queue gone", explanation: "queue gone")))))
        #expect(reduce(&s, .key(.char("R"))) == [.restartPoller])
        #expect(s.notice == "restarting the poller…")
    }

    @Test func absoluteTimeShowsTheDateWhenNotToday() {
        let day: Int64 = 86_400
        let rows = [
            makeRow("T-1", "today", secondsAgo: 60, seq: 3),  // 02:59:00 on 2026-11-22
            makeRow("T-2", "earlier this year", secondsAgo: 13 * day, seq: 2),  // 2026-11-09 03:00
            makeRow("T-3", "last year", secondsAgo: 400 * day, seq: 1),
        ]
        var s = loadedState(rows, width: 80, height: 8)
        _ = reduce(&s, .key(.char("t")))
        let screen = render(s, width: 80, height: 8)
        #expect(screen.line(1).contains("02:59:00"))
        #expect(screen.line(2).contains("11-09 03:00"))
        #expect(screen.line(3).contains("2025-10-18"))
        GoldenScreen.check(screen, "80x8-absolute-time-dates")
    }

    @Test(arguments: [40, 60, 100, 159, 200])
    func detailScrollsWithJKAndTheIndicatorCoversNoText(width: Int) {
        let body = (1...60).map { "body line \($0) " + String(repeating: "w", count: 30) }.joined(separator: "\n")
        var s = loadedState([makeRow("T-1", "long", secondsAgo: 5, body: body, seq: 1)], width: width, height: 14)
        _ = reduce(&s, .key(.enter))
        _ = reduce(&s, .historyLoaded(HistoryResult(taskID: "T-1", row: s.selectedRow, events: [])))
        _ = reduce(&s, .key(.char("J")))
        #expect(s.detail?.scroll == 1, "J scrolls at width \(width)")
        _ = reduce(&s, .key(.char("J")))
        _ = reduce(&s, .key(.char("K")))
        #expect(s.detail?.scroll == 1)
        let screen = render(s, width: width, height: 14)
        let indicatorLine = (1..<13).first { screen.line($0).contains("/") && screen.line($0).contains("j/k") || screen.line($0).contains("J/K") }
        #expect(indicatorLine == 12, "indicator on the pane's last line at width \(width)")
        // The pane's last line holds only the indicator: no body text under it.
        let paneX = DetailLayout.paneX(s)
        let last = String(screen.line(12).dropFirst(paneX))
        #expect(!last.contains("body line") && !last.contains("w w"))
    }

    @Test func cLocaleGoldens() {
        let rows = [
            makeRow("T-1", "部署完成 👍🏽 family 👨‍👩‍👧‍👦 and a title long enough to be cut short here", status: .error,
                    agent: "配置代理", category: "デプロイ", secondsAgo: 5, seq: 5),
            makeRow("T-2", "Deploying", status: .inProgress, secondsAgo: 10, progress: 40, seq: 4),
            makeRow("T-3", "Done", status: .success, secondsAgo: 700, seq: 3),
            makeRow("T-4", "Disk at 85%", status: .warning, secondsAgo: 800, seq: 2),
            makeRow("T-5", "Audit", status: .info, secondsAgo: 900, seq: 1),
        ]
        let s = loadedState(rows, width: 80, height: 9) {
            $0.asciiOnly = true
            $0.showNotice("locale is not UTF-8: ASCII glyphs (set LANG=C.UTF-8 for more)", seconds: 10)
        }
        let screen = render(s, width: 80, height: 9)
        for y in 0..<screen.height {
            let ascii = screen.line(y).allSatisfy { $0.isASCII }
            #expect(ascii, "line \(y): \(screen.line(y))")
        }
        #expect(screen.line(1).hasPrefix(" x ") && screen.line(1).contains("...") && screen.line(1).contains("????"))
        #expect(screen.line(2).contains("|") || screen.line(2).contains("/") || screen.line(2).contains("-"))
        #expect(screen.line(3).hasPrefix(" + ") && screen.line(4).hasPrefix(" ! ") && screen.line(5).hasPrefix(" * "))
        GoldenScreen.check(screen, "80x9-c-locale")
        var help = s
        _ = reduce(&help, .key(.char("?")))
        GoldenScreen.check(render(help, width: 80, height: 9), "80x9-c-locale-help")
    }

    @Test func tinyGoldens() {
        var s = loadedState(sampleRows(), width: 20, height: 5)
        var screen = render(s, width: 20, height: 5)
        #expect(screen.line(4).contains("FOLLOW") && screen.line(4).contains("? help"))
        GoldenScreen.check(screen, "20x5-follow")
        _ = reduce(&s, .key(.char("?")))
        screen = render(s, width: 20, height: 5)
        GoldenScreen.check(screen, "20x5-help")
        _ = reduce(&s, .key(.char("j")))
        _ = reduce(&s, .key(.char("j")))
        #expect(s.helpOpen && s.helpScroll == 2)
        GoldenScreen.check(render(s, width: 20, height: 5), "20x5-help-scrolled")
        let stopped = loadedState([], width: 40, height: 12) {
            $0.poller = PollerStatusView(state: .stopped(PollerProblem(
                summary: "queue jobs does not exist", explanation: "queue http://h/1/jobs does not exist (X). Check the URL")))
        }
        screen = render(stopped, width: 40, height: 12)
        GoldenScreen.check(screen, "40x12-empty-poller-stopped")
        var bang = stopped
        _ = reduce(&bang, .key(.char("!")))
        GoldenScreen.check(render(bang, width: 40, height: 12), "40x12-poller-message")
    }
}
