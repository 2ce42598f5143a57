import Testing
import TimelineCore
@testable import TimelineUI

@Suite("Screen goldens")
struct ScreenGoldenTests {
    @Test func followBasic80x24() {
        let s = loadedState(sampleRows(), width: 80, height: 24, total: 7)
        GoldenScreen.check(render(s, width: 80, height: 24), "80x24-follow-basic")
    }

    @Test func followWide120x30() {
        let s = loadedState(sampleRows(), width: 120, height: 30) {
            $0.poller = PollerStatusView(state: .receiving, queueName: "agents-demo", lastReceiveMicros: fixedNow - 90_000_000)
        }
        GoldenScreen.check(render(s, width: 120, height: 30), "120x30-follow-receiving")
    }

    @Test func narrow40x10() {
        let s = loadedState(sampleRows(), width: 40, height: 10)
        GoldenScreen.check(render(s, width: 40, height: 10), "40x10-narrow")
    }

    @Test func browseWithNewEvents60x12() {
        var s = loadedState(sampleRows(), width: 60, height: 12)
        _ = reduce(&s, .key(.char("j")))
        _ = reduce(&s, .key(.char("j")))
        let creq = CountsRequest(generation: s.generation, listQuery: s.listQuery, statusQuery: s.statusCountQuery,
                                 matchQuery: nil, newerThan: s.browseBaseline)
        _ = reduce(&s, .countsLoaded(CountsResult(request: creq, total: 9, perStatus: [.info: 2, .success: 2, .error: 1, .warning: 1, .inProgress: 3],
                                                  matchCount: nil, newCount: 2)))
        GoldenScreen.check(render(s, width: 60, height: 12), "60x12-browse-new-events")
    }

    @Test func cjkAndEmoji120x30() {
        let rows = [
            makeRow("T-1", "部署完成：生产环境已更新 ✅ 全部服务正常", status: .success, agent: "配置代理",
                    category: "デプロイ", secondsAgo: 5, seq: 10),
            makeRow("T-2", "🚀 Launching rocket 🚀🚀 with family 👨‍👩‍👧 and flags 🇯🇵", status: .info, agent: "emoji-bot",
                    category: "fun 🎉", secondsAgo: 50, seq: 9),
            makeRow("T-3", "Café crème, naïve résumé — combining: e\u{301}e\u{301}e\u{301}", status: .warning,
                    agent: "zoë", category: "i18n", secondsAgo: 500, seq: 8),
            makeRow("T-4", "한국어 제목이 아주 길어서 잘려야 합니다 한국어 제목이 아주 길어서 잘려야 합니다 한국어 제목이 아주 길어서 잘려야 합니다",
                    status: .error, agent: "검사기", category: "테스트", secondsAgo: 5000, seq: 7),
        ]
        let s = loadedState(rows, width: 120, height: 30)
        GoldenScreen.check(render(s, width: 120, height: 30), "120x30-cjk-emoji")
        let narrow = loadedState(rows, width: 61, height: 8)
        GoldenScreen.check(render(narrow, width: 61, height: 8), "61x8-cjk-emoji-odd-width")
    }

    @Test func hostileText80x24() {
        let rows = [
            makeRow("T-evil", "\u{1B}[2J\u{1B}[31mRED\u{1B}[0m title \u{1B}]0;pwned\u{07} done", status: .error,
                    agent: "evil\u{1B}[5magent", category: "cat\u{0}egory", secondsAgo: 3, seq: 3),
            makeRow("T-bidi", "abc\u{202E}fedcba\u{202C} tab\there\nnewline\rcr", status: .warning,
                    agent: "bi\u{2066}di", secondsAgo: 30, seq: 2),
            makeRow("T-c1", "C1 \u{9B}31m controls \u{85} and DEL\u{7F}", status: .info, secondsAgo: 60, seq: 1),
        ]
        let s = loadedState(rows, width: 80, height: 24)
        let screen = render(s, width: 80, height: 24)
        for y in 0..<screen.height {
            for x in 0..<screen.width {
                let scalars = screen[x, y].character.unicodeScalars
                #expect(!scalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) })
            }
        }
        GoldenScreen.check(screen, "80x24-hostile-text")
    }

    @Test func emptyState80x24() {
        let s = loadedState([], width: 80, height: 24)
        GoldenScreen.check(render(s, width: 80, height: 24), "80x24-empty")
        let q = loadedState([], width: 100, height: 20) {
            $0.poller = PollerStatusView(state: .connected, queueName: "agents",
                                         queueURL: "http://127.0.0.1:4566/000000000000/agents")
        }
        GoldenScreen.check(render(q, width: 100, height: 20), "100x20-empty-with-queue")
    }

    @Test func helpOverlay80x24() {
        var s = loadedState(sampleRows(), width: 80, height: 24)
        _ = reduce(&s, .key(.char("?")))
        GoldenScreen.check(render(s, width: 80, height: 24), "80x24-help")
        _ = reduce(&s, .key(.char("x")))
        #expect(!s.helpOpen)
    }

    @Test func splitDetail160x40() {
        var s = loadedState(sampleRows(), width: 160, height: 40)
        let effects = reduce(&s, .key(.enter))
        #expect(effects == [.loadHistory(taskID: "T-101")])
        let history = [60.0, 40, 20].enumerated().map { i, p in
            Event(id: "h\(i)", agentID: "deployer", taskID: "T-101", title: "Deploying api-gateway to staging",
                  status: .inProgress, category: "deploy", timestampMicros: fixedNow - Int64(12 + i * 60) * 1_000_000,
                  progress: p, rawJSON: "{}")
        } + [Event(id: "h3", agentID: "deployer", taskID: "T-101", title: "Deploy queued", status: .info,
                   category: "deploy", timestampMicros: fixedNow - 400_000_000, rawJSON: "{}")]
        _ = reduce(&s, .historyLoaded(HistoryResult(taskID: "T-101", row: s.window[0], events: history)))
        #expect(s.splitDetail)
        GoldenScreen.check(render(s, width: 160, height: 40), "160x40-split-detail")
    }

    @Test func fullDetailWithLongBody80x24() {
        var rows = sampleRows()
        rows[2] = makeRow("T-103", rows[2].event.title, status: .error, agent: "ci-runner", category: "ci",
                          secondsAgo: 300, body: (1...30).map { "line \($0): store suite timed out after 30 s waiting for the writer lock" }.joined(separator: "\n"),
                          seq: 38, events: 3)
        var s = loadedState(rows, width: 80, height: 24)
        _ = reduce(&s, .key(.char("j")))
        _ = reduce(&s, .key(.char("j")))
        _ = reduce(&s, .key(.enter))
        _ = reduce(&s, .historyLoaded(HistoryResult(taskID: "T-103", row: rows[2], events: [rows[2].event])))
        GoldenScreen.check(render(s, width: 80, height: 24), "80x24-detail-top")
        for _ in 0..<10 { _ = reduce(&s, .key(.char("j"))) }
        GoldenScreen.check(render(s, width: 80, height: 24), "80x24-detail-scrolled")
        _ = reduce(&s, .key(.char("z")))  // the whole body, not its first screen
        _ = reduce(&s, .key(.char("G")))
        let bottom = render(s, width: 80, height: 24)
        #expect(bottom.line(21).contains("{}"))  // the last text line; line 22 holds the position indicator
        #expect(bottom.line(22).contains("j/k 27-47/47"), "\(bottom.line(22))")
        #expect((1..<22).contains { bottom.line($0).contains("Raw payload") })
        _ = reduce(&s, .key(.escape))
        #expect(s.detail == nil)
    }

    @Test func searchPromptHighlight100x20() {
        var s = loadedState(sampleRows(), width: 100, height: 20)
        _ = reduce(&s, .key(.char("/")))
        for c in "deploy" { _ = reduce(&s, .key(.char(c))) }
        _ = reduce(&s, .key(.tab))
        #expect(s.search.kind == .highlight)
        let creq = CountsRequest(generation: s.generation, listQuery: s.listQuery, statusQuery: s.statusCountQuery,
                                 matchQuery: s.matchQuery, newerThan: nil)
        _ = reduce(&s, .countsLoaded(CountsResult(request: creq, total: 7, perStatus: [:], matchCount: 1, newCount: nil)))
        GoldenScreen.check(render(s, width: 100, height: 20), "100x20-search-highlight")
    }

    @Test func staleAndAbsoluteTime100x12() {
        let rows = [
            makeRow("T-live", "Crunching numbers", status: .inProgress, agent: "cruncher", secondsAgo: 20, progress: 5, seq: 3),
            makeRow("T-quiet", "Waiting for review", status: .inProgress, agent: "reviewer", secondsAgo: 400, seq: 2),
            makeRow("T-stale", "Rebuilding search index", status: .inProgress, agent: "indexer", secondsAgo: 7_200, progress: 80, seq: 1),
        ]
        var s = loadedState(rows, width: 100, height: 12) {
            $0.poller = PollerStatusView(state: .backingOff(untilMicros: fixedNow + 8_000_000, problem: PollerProblem(summary: "connection refused", explanation: "connection refused")))
        }
        GoldenScreen.check(render(s, width: 100, height: 12), "100x12-live-quiet-stale")
        _ = reduce(&s, .key(.char("t")))
        GoldenScreen.check(render(s, width: 100, height: 12), "100x12-absolute-time")
    }
}
