import Foundation
import Testing
import TimelineCore
@testable import TimelineStore
import TestSupport

/// The kept read state (schema 13): the unread error count and the distinct agents and categories stay equal to
/// counting the timeline, whatever writes it; qualifiers resolved through them find exactly the rows the
/// row-by-row test finds.
@Suite("TimelineStore kept read counts")
struct ReadCountsTests {
    /// Unread error tasks walked over the timeline (the rule the kept count must equal).
    private func walked(_ store: TimelineStore) throws -> Int {
        Int(try store.db.scalarInt(UnreadErrors.countSQL))
    }

    /// (kind, value, tasks) counted over the timeline, and as kept.
    private func values(_ store: TimelineStore) throws -> (counted: [String], kept: [String]) {
        func read(_ sql: String) throws -> [String] {
            let statement = try store.db.prepare(sql)
            var out: [String] = []
            while try statement.step() == .row { out.append("\(statement.string(0))|\(statement.string(1))|\(statement.int(2))") }
            return out
        }
        let counted = try read("""
            SELECT 'agent', agent_id, count(*) FROM timeline GROUP BY agent_id
            UNION ALL SELECT 'category', category, count(*) FROM timeline WHERE category IS NOT NULL GROUP BY category
            ORDER BY 1, 2
            """)
        return (counted, try read("SELECT kind, value, tasks FROM timeline_values ORDER BY 1, 2"))
    }

    private func expectKept(_ store: TimelineStore, unread: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try store.fleetCounts().unreadErrors == unread, sourceLocation: sourceLocation)
        #expect(try walked(store) == unread, sourceLocation: sourceLocation)
        let (counted, kept) = try values(store)
        #expect(kept == counted, sourceLocation: sourceLocation)
    }

    @Test func unreadErrorsFollowIngestMarksWatermarkAndPrune() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        try expectKept(store, unread: 0)
        try store.ingestEvents([
            makeEvent("a1", task: "A", second: 1, status: .error, agent: "agent-1", category: "deploy"),
            makeEvent("b1", task: "B", second: 2, status: .error, agent: "agent-2"),
            makeEvent("c1", task: "C", second: 3, status: .inProgress, agent: "agent-2", category: "email"),
        ])
        try expectKept(store, unread: 2)
        // Reading A's error; a mark older than the winning event leaves it unread; marking again is no change.
        let aSeq = try #require(try store.row(taskID: "A")).seq
        let bSeq = try #require(try store.row(taskID: "B")).seq
        try store.markRead(taskID: "B", seq: bSeq - 1)
        try expectKept(store, unread: 2)
        try store.markRead(taskID: "A", seq: aSeq)
        try store.markRead(taskID: "A", seq: aSeq)
        try expectKept(store, unread: 1)
        // A newer error on the read task makes it unread again; an older event changes nothing; C turns
        // error (unread); B recovers (another agent and category too).
        try store.ingestEvents([
            makeEvent("a2", task: "A", second: 10, status: .error, agent: "agent-3", category: "deploy"),
            makeEvent("a0", task: "A", second: 0, status: .success),
            makeEvent("c2", task: "C", second: 11, status: .error, agent: "agent-2", category: "email"),
            makeEvent("b2", task: "B", second: 12, status: .success, agent: "agent-4", category: "email"),
        ])
        try expectKept(store, unread: 2)
        // `U`: nothing unread; errors after it are.
        try store.markAllRead()
        try expectKept(store, unread: 0)
        try store.ingestEvents([
            makeEvent("d1", task: "D", second: 13, status: .error, agent: "agent-1"),
            makeEvent("b3", task: "B", second: 14, status: .error, agent: "agent-4", category: "email"),
        ])
        try expectKept(store, unread: 2)
        try store.markRead(taskID: "D", seq: try #require(try store.row(taskID: "D")).seq)
        try expectKept(store, unread: 1)
        // Prune removes whole tasks older than the cutoff (A at 10 s, C at 11 s) with their read marks.
        _ = try store.prune(olderThan: 1_800_000_000_000_000 + 11_500_000, keepRunning: false, reclaimSpace: false)
        #expect(try store.count(matching: TimelineQuery()) == 2)
        try expectKept(store, unread: 1)
        // A second connection sees the same kept count.
        #expect(try fixture.secondConnection(readOnly: true).fleetCounts().unreadErrors == 1)
    }

    @Test func migrationKeepsCountsOfAnExistingTimeline() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("v12.db")
        do {
            let store = try TimelineStore(path: path)
            try store.ingestEvents((0..<40).map {
                makeEvent("e\($0)", task: "T\($0 % 9)", second: Int64($0), status: Status.allCases[$0 % Status.allCases.count],
                          agent: "agent-\($0 % 4)", category: $0 % 3 == 0 ? nil : "cat-\($0 % 5)")
            })
            try store.markRead(taskID: "T1", seq: 100)
            try store.db.execute("""
                DROP TABLE unread_errors; DROP TABLE timeline_values; DROP INDEX timeline_agent; DROP INDEX timeline_category;
                PRAGMA user_version = 12
                """)
        }
        let store = try TimelineStore(path: path)
        #expect(try store.db.userVersion() == Schema.latestVersion)
        #expect(try walked(store) > 0)
        try expectKept(store, unread: try walked(store))
        #expect(try store.db.scalarInt("SELECT count(*) FROM timeline_values WHERE kind = 'agent'") == 4)
    }

    /// Task ids, in order, of every page of `limit` rows (the keyset walk the viewer does).
    private func pages(_ store: TimelineStore, _ query: TimelineQuery, limit: Int) throws -> [String] {
        var ids: [String] = []
        var key: RowKey?
        while true {
            let rows = try store.rows(matching: query, olderThan: key, limit: limit)
            ids += rows.map(\.event.taskID)
            guard rows.count == limit, let last = rows.last else { return ids }
            key = RowKey(timestampMicros: last.event.timestampMicros, seq: last.seq)
        }
    }

    /// Everything a reader asks of a query: all rows, pages, counts (capped too) and per-status counts.
    private func answers(_ store: TimelineStore, _ text: String) throws -> [String] {
        let query = TimelineQuery.parse(text)
        return [
            try store.allRows(query).map(\.event.taskID).joined(separator: ","),
            try pages(store, query, limit: 40).joined(separator: ","),
            "\(try store.count(matching: query)) \(try store.count(matching: query, upTo: 30))",
            "\(try store.statusCounts(matching: query).sorted { $0.key.rawValue < $1.key.rawValue })",
        ]
    }

    @Test func resolvedQualifiersFindWhatTheRowByRowTestFinds() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        // 2,600 tasks: common agents (thousands of matches: the walk in order) and rare ones (few matches:
        // read from the index), hosts, mixed case and non-ASCII, tasks without a category.
        let agents = ["agent-1", "agent-7", "agent-17", "agent-70", "Agent-7@Build-A", "ops@host-b", "ÄGENT-ß@höst-ü", "x_y%z"]
        let categories: [String?] = [nil, "email", "Email-digest", "deploy", "DEPLOY-eu", "çatégorie", "100%"]
        var events: [Event] = []
        for n in 0..<2_600 {
            let agent = n % 50 == 0 ? agents[4 + (n / 50) % 4] : agents[n % 4]
            events.append(makeEvent("e\(n)", task: "task-\(n)", second: Int64(n % 977), status: Status.allCases[n % 6],
                                    agent: agent, category: categories[n % categories.count]))
        }
        try store.ingestEvents(events)
        let queries = [
            "status:error agent:agent-7 -category:email", "agent:agent-7", "agent:AGENT-1", "agent:gent", "agent:nobody",
            "category:deploy", "category:EMAIL status:success", "-category:email", "-category:deploy -agent:agent-1",
            "host:build", "host:HÖST", "-host:host", "agent:ägent", "category:ÇAT", "category:%", "agent:_y%",
            "agent:agent-7 category:deploy", "agent:7 -agent:17", "agent:ops agent:70", "-agent:nobody status:warning",
            "agent:agent-1 event", "category:deploy 12", "category:email e", "-category:çat agent:agent",
        ]
        let resolved = try queries.map { try answers(store, $0) }
        #expect(resolved.contains { $0[0].split(separator: ",").count > 2_000 })
        #expect(resolved.contains { (1..<100).contains($0[0].split(separator: ",").count) })
        // Without the distinct values every qualifier is tested row by row, as before schema 13.
        try store.db.execute("DROP TABLE timeline_values")
        for (query, answer) in zip(queries, resolved) {
            #expect(try answers(store, query) == answer, "\(query)")
        }
    }
}
