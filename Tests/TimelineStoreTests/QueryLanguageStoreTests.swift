import Foundation
import Testing
import TimelineCore
@testable import TimelineStore

/// Every query form against a real store, compared with a plain in-memory evaluation of the same rules,
/// both for rows the full-text index holds and for rows still waiting for it (bulk import before flush).
@Suite("Query language in the store")
struct QueryLanguageStoreTests {
    static let forms = [
        "deploy", "\"dry run\"", "-\"dry run\"", "-deploy", "-ab", "status:error", "-status:error,info",
        "agent:heart", "-agent:heartbeat", "category:review", "-category:review", "task:T-1", "-task:T-1",
        "since:2026-01-15T00:00:00Z", "until:2026-01-15T00:00:00Z", "since:1h", "Straße", "-straße",
        "deploy -agent:heartbeat status:error,warning since:2026-01-10T00:00:00Z -\"dry run\"",
        "is:marked", "-is:marked", "is:marked deploy",
        "host:lap", "host:LAPTOP-3", "-host:laptop", "host:büro", "-host:BÜRO", "host:lap agent:claude",
        "host:box -agent:codex", "project:review", "-project:review",
    ]
    /// Tasks marked in the store before the queries run.
    static let marked: Set<String> = ["T-1", "T-2", "T-10", "T-33"]

    static func events(nowMicros: Int64) -> [Event] {
        let base = Timestamp.parseMicros("2026-01-01T00:00:00Z")!
        var events: [Event] = []
        for i in 0..<60 {
            let status = Status.allCases[i % Status.allCases.count]
            let title = ["Deploy web", "dry run of deploy", "ab test", "Straße gebaut", "plain"][i % 5]
            let ts = i == 59 ? nowMicros - 60_000_000 : base + Int64(i) * 86_400_000_000 / 2
            events.append(Event(id: "e\(i)", agentID: Self.agentID(i), taskID: "T-\(i)",
                                title: title, body: i % 7 == 0 ? "body says dry run" : "", status: status,
                                category: i % 4 == 0 ? nil : (i % 2 == 0 ? "code-review" : "deploy"),
                                timestampMicros: ts, rawJSON: "{}"))
        }
        return events
    }

    /// Plain agents, and hooks' `AGENT@HOST` ones (a host that is also an agent's name; an `@` inside).
    static func agentID(_ i: Int) -> String {
        switch i % 6 {
        case 1: "claude@laptop-\(i % 4)"
        case 5: "codex@Büro-\(i % 3)"
        case 4 where i % 12 == 4: "laptop@box"
        case 2 where i % 12 == 2: "claude@laptop@box"
        default: i % 3 == 0 ? "heartbeat" : "builder-\(i % 4)"
        }
    }

    /// The rules, written plainly (case-insensitive substrings; statuses exact; bounds inclusive).
    static func expected(_ events: [Event], _ q: TimelineQuery, now: Int64) -> [String] {
        let marked = Self.marked
        func has(_ s: String?, _ n: String) -> Bool { (s ?? "").lowercased().contains(n.lowercased()) }
        func host(_ agentID: String) -> String { agentID.split(separator: "@", omittingEmptySubsequences: false).dropFirst().last.map(String.init) ?? "" }
        return events.filter { e in
            let text = [e.title, e.body, e.agentID, e.taskID, e.category ?? ""]
            return q.terms.allSatisfy { t in text.contains { has($0, t) } }
                && !q.excludedTerms.contains { t in text.contains { has($0, t) } }
                && (q.statuses.isEmpty || q.statuses.contains(e.status)) && !q.excludedStatuses.contains(e.status)
                && (q.agents.isEmpty || q.agents.contains { has(e.agentID, $0) }) && !q.excludedAgents.contains { has(e.agentID, $0) }
                && (q.categories.isEmpty || q.categories.contains { has(e.category, $0) })
                && !q.excludedCategories.contains { has(e.category, $0) }
                && (q.hosts.isEmpty || q.hosts.contains { has(host(e.agentID), $0) })
                && !q.excludedHosts.contains { has(host(e.agentID), $0) }
                && (q.tasks.isEmpty || q.tasks.contains { has(e.taskID, $0) }) && !q.excludedTasks.contains { has(e.taskID, $0) }
                && (q.since.map { e.timestampMicros >= $0.micros(now: now) } ?? true)
                && (q.until.map { e.timestampMicros <= $0.micros(now: now) } ?? true)
                && (q.marked.map { marked.contains(e.taskID) == $0 } ?? true)
        }.map(\.taskID).sorted()
    }

    @Test(arguments: [false, true])
    func everyFormMatchesThePlainRules(deferIndex: Bool) throws {
        let fixture = try StoreFixture()
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
        let events = Self.events(nowMicros: now)
        _ = try fixture.store.ingest(events.map { .event($0, messageID: nil) }, deferSearchIndex: deferIndex)
        for task in Self.marked { try fixture.store.setMark(taskID: task, marked: true) }
        for form in Self.forms {
            let q = TimelineQuery.parse(form)
            #expect(q.problems.isEmpty, "\(form)")
            let want = Self.expected(events, q, now: now)
            let got = try fixture.store.allRows(q).map(\.taskID).sorted()
            #expect(got == want, "\(form)")
            #expect(try fixture.store.count(matching: q) == want.count, "\(form)")
            // Windows of 3 agree with the whole answer (the walk and match-set plans).
            #expect(try fixture.store.rows(matching: q, olderThan: nil, limit: 3).count == min(3, want.count), "\(form)")
        }
        // The forms are not vacuous: each selects some rows and leaves out others.
        for form in Self.forms {
            let n = Self.expected(events, TimelineQuery.parse(form), now: now).count
            #expect(n > 0 && n < events.count, "\(form) selects \(n)")
        }
    }
}
