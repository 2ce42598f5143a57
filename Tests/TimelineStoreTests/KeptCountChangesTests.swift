import Foundation
import Testing
import TimelineCore
@testable import TimelineStore
import TestSupport

/// A large batch writes its timeline rows with the triggers off and applies the kept counts once
/// (`KeptCountChanges`): every kept table must end exactly as the triggers leave it row by row.
@Suite("TimelineStore kept counts applied once per batch")
struct KeptCountChangesTests {
    /// The same history in a store: tasks of every status, read marks, the `U` watermark, an agent and a
    /// category held by one task only.
    private func history(_ store: TimelineStore) throws {
        try store.ingestEvents([
            makeEvent("a1", task: "A", second: 1, status: .error, agent: "agent-1", category: "deploy"),
            makeEvent("b1", task: "B", second: 2, status: .error, agent: "agent-2"),
            makeEvent("e1", task: "E", second: 3, status: .error, agent: "agent-2", category: "email"),
        ])
        try store.markAllRead()
        try store.ingestEvents([
            makeEvent("b2", task: "B", second: 4, status: .error, agent: "agent-2"),
            makeEvent("c1", task: "C", second: 5, status: .inProgress, agent: "agent-9", category: "solo"),
            makeEvent("d1", task: "D", second: 6, status: .success, agent: "agent-1", category: "deploy"),
            makeEvent("f1", task: "F", second: 7, status: .info, agent: "agent-3"),
            makeEvent("h1", task: "H", second: 8, status: .warning, agent: "agent-3", category: "email"),
        ])
        try store.markRead(taskID: "B", seq: try #require(try store.row(taskID: "B")).seq)
    }

    /// A batch that changes every kind of count: new tasks (one with no category), a new status for an
    /// unread and a read error, an error read through the watermark turning newer, the last task of an
    /// agent and a category moving away, an older event only, a task passing through several statuses,
    /// and enough tasks to cross the default threshold.
    private func batch() -> [Event] {
        var events = [
            makeEvent("a2", task: "A", second: 20, status: .success, agent: "agent-2"),
            makeEvent("b3", task: "B", second: 21, status: .error, agent: "agent-2", category: "deploy"),
            makeEvent("e2", task: "E", second: 22, status: .error, agent: "agent-2", category: "email"),
            makeEvent("c2", task: "C", second: 23, status: .error, agent: "agent-1", category: "deploy"),
            makeEvent("d0", task: "D", second: 0, status: .error, agent: "agent-1", category: "deploy"),
            makeEvent("f2", task: "F", second: 24, status: .inProgress, agent: "agent-3"),
            makeEvent("f3", task: "F", second: 25, status: .error, agent: "agent-3"),
            makeEvent("f4", task: "F", second: 26, status: .needsInput, agent: "agent-3"),
            makeEvent("h2", task: "H", second: 27, status: .success, agent: "agent-3"),
            makeEvent("g1", task: "G", second: 28, status: .error, agent: "agent-new"),
            makeEvent("g2", task: "G", second: 29, status: .inProgress, agent: "agent-new", category: "fresh"),
            makeEvent("n1", task: "N", second: 30, status: .error, agent: "agent-7", category: "fresh"),
        ]
        for index in 0..<BatchWriter.countsOnceFromDefault {
            let status = Status.allCases[index % Status.allCases.count]
            events.append(makeEvent("bulk\(index)", task: "bulk-\(index)", second: 40 + Int64(index), status: status,
                                    agent: "agent-\(index % 5)", category: index % 3 == 0 ? nil : "cat-\(index % 4)"))
        }
        return events
    }

    /// Stores `events` in one transaction, applying the kept counts once from `countsOnceFrom` tasks.
    private func write(_ events: [Event], to store: TimelineStore, countsOnceFrom: Int) throws -> [IngestOutcome] {
        try store.db.transaction {
            var writer = try BatchWriter(db: store.db, receivedMicros: 1)
            writer.countsOnceFrom = countsOnceFrom
            let outcomes = try events.map { try writer.store(PreparedEvent($0), messageID: nil) }
            try writer.writeTimelineRows()
            return outcomes
        }
    }

    /// Every kept table and the timeline, as text.
    private func kept(_ store: TimelineStore) throws -> [String] {
        let statement = try store.db.prepare("""
            SELECT 'status|' || status || '|' || tasks FROM task_counts
            UNION ALL SELECT kind || '|' || value || '|' || tasks FROM timeline_values
            UNION ALL SELECT 'unread|' || tasks FROM unread_errors
            UNION ALL SELECT 'row|' || row_id || '|' || task_id || '|' || seq || '|' || ts_us || '|' || status || '|'
                || agent_id || '|' || coalesce(category, '-') || '|' || event_count FROM timeline
            ORDER BY 1
            """)
        var out: [String] = []
        while try statement.step() == .row { out.append(statement.string(0)) }
        return out
    }

    @Test func countsAppliedOncePerBatchEqualTheTriggersRowByRow() throws {
        let once = try StoreFixture()
        let perRow = try StoreFixture()
        try history(once.store)
        try history(perRow.store)
        #expect(try kept(once.store) == kept(perRow.store))

        let outcomes = try write(batch(), to: once.store, countsOnceFrom: 0)
        #expect(try write(batch(), to: perRow.store, countsOnceFrom: .max) == outcomes)
        let result = try kept(once.store)
        #expect(result == (try kept(perRow.store)))
        // agent-9 and "solo" lost their only task; the unread errors are what the rule counts (B, E, C, N
        // and the new error tasks; A is no error now, D's older error changes nothing).
        #expect(!result.contains { $0.hasPrefix("agent|agent-9|") || $0.hasPrefix("category|solo|") })
        let unread = try once.store.db.scalarInt(UnreadErrors.countSQL)
        #expect(unread > 4)
        #expect(result.contains("unread|\(unread)"))
    }

    @Test func aLargeIngestKeepsCountsAndLeavesTriggersOn() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        try history(store)
        try store.ingestEvents(batch())
        let counted = """
            SELECT (SELECT group_concat(status || '=' || n) FROM (SELECT status, count(*) n FROM timeline GROUP BY status ORDER BY status))
            || ' ' || (SELECT group_concat(status || '=' || tasks) FROM (SELECT status, tasks FROM task_counts WHERE tasks > 0 ORDER BY status))
            """
        func expectCountsKept(_ sourceLocation: SourceLocation = #_sourceLocation) throws {
            let both = try #require(try store.db.scalarString(counted)).split(separator: " ")
            #expect(both.count == 2 && both[0] == both[1], sourceLocation: sourceLocation)
            #expect(try store.fleetCounts().unreadErrors == Int(store.db.scalarInt(UnreadErrors.countSQL)),
                    sourceLocation: sourceLocation)
        }
        try expectCountsKept()
        // The triggers are on again for the next small batch and for read marks.
        try store.ingestEvents([makeEvent("z1", task: "Z", second: 90, status: .error, agent: "agent-z", category: "zz")])
        try store.markRead(taskID: "C", seq: try #require(try store.row(taskID: "C")).seq)
        try expectCountsKept()
        #expect(try store.db.scalarInt("SELECT tasks FROM timeline_values WHERE kind = 'agent' AND value = 'agent-z'") == 1)
    }
}
