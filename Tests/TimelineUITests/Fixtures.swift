import Foundation
import TimelineCore
@testable import TimelineUI

/// Fixed clock for every screen test: 2026-11-22 03:00:00 UTC.
let fixedNow: Int64 = 1_795_316_400_000_000

/// A timeline row `secondsAgo` before the fixed clock.
func makeRow(_ task: String, _ title: String, status: Status = .info, agent: String = "builder-1",
             category: String? = nil, secondsAgo: Int64, progress: Double? = nil, body: String = "",
             seq: Int64, events: Int = 1) -> TimelineRow {
    let ts = fixedNow - secondsAgo * 1_000_000
    let event = Event(id: "ev-\(seq)", agentID: agent, taskID: task, title: title, body: body, status: status,
                      category: category, timestampMicros: ts, progress: progress, rawJSON: "{}")
    return TimelineRow(event: event, seq: seq, eventCount: events, receivedMicros: ts + 150_000)
}

/// A typical fleet: newest first.
func sampleRows() -> [TimelineRow] {
    [
        makeRow("T-101", "Deploying api-gateway to staging", status: .inProgress, agent: "deployer",
                category: "deploy", secondsAgo: 12, progress: 60, seq: 40, events: 5),
        makeRow("T-102", "Review of PR #4711: tighten SQS retry policy", status: .success, agent: "reviewer-2",
                category: "code-review", secondsAgo: 75, seq: 39),
        makeRow("T-103", "Integration tests failed: 3 of 212 (timeouts in store suite)", status: .error,
                agent: "ci-runner", category: "ci", secondsAgo: 300, seq: 38, events: 3),
        makeRow("T-104", "Disk usage at 85% on build host", status: .warning, agent: "watchdog",
                category: "infra", secondsAgo: 1_800, seq: 37),
        makeRow("T-105", "Indexing repository for semantic search", status: .inProgress, agent: "indexer",
                category: "search", secondsAgo: 4_000, progress: 35, seq: 36),
        makeRow("T-106", "Nightly dependency audit finished", status: .info, agent: "auditor",
                category: "security", secondsAgo: 10_800, seq: 35),
        makeRow("T-107", "Migrated 1,204 tickets", status: .success, agent: "migrator", category: nil,
                secondsAgo: 172_800, seq: 34),
    ]
}

/// A state that went through `reduce`: sized, ticked and with `rows` loaded as the newest window.
func loadedState(_ rows: [TimelineRow], width: Int, height: Int, total: Int? = nil,
                 configure: (inout AppState) -> Void = { _ in }) -> AppState {
    var s = AppState(width: width, height: height, nowMicros: fixedNow)
    s.timeZone = TimeZone(identifier: "UTC")!
    configure(&s)
    let req = WindowRequest(generation: s.generation, query: s.listQuery, anchor: .newest, above: 0,
                            below: 100, anchorPosition: nil, keepSelection: false, targetLine: nil)
    _ = reduce(&s, .windowLoaded(WindowResult(request: req, rows: rows, anchorIndex: 0, startPosition: 0,
                                              reachesNewest: true, reachesOldest: true, anchorMoved: false)))
    var perStatus: [Status: Int] = [:]
    for r in rows { perStatus[r.event.status, default: 0] += 1 }
    let creq = CountsRequest(generation: s.generation, listQuery: s.listQuery, statusQuery: s.statusCountQuery,
                             matchQuery: s.matchQuery, newerThan: nil)
    _ = reduce(&s, .countsLoaded(CountsResult(request: creq, total: total ?? rows.count, perStatus: perStatus,
                                              matchCount: nil, newCount: nil)))
    return s
}

/// `y` typed once the open confirmation is on screen (a frame was drawn since it opened), as a user does.
func confirmWithY(_ s: inout AppState) -> [Effect] {
    confirmationDrawn(&s)
    return reduce(&s, .key(.char("y")))
}
