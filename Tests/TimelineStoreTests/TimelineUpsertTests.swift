import Foundation
import Testing
import TimelineCore
@testable import TimelineStore
import TestSupport

/// The timeline upsert writes a task's status, agent and category only when its new winning event changes
/// them, so the indexes on those columns do nothing for a task that only moved on.
@Suite("TimelineStore timeline upsert")
struct TimelineUpsertTests {
    /// Counts the UPDATEs of the timeline whose SET list names each column (temporary triggers: an
    /// `UPDATE OF` trigger fires when the column is set, whether or not its value changes).
    private func watchColumnWrites(_ db: Database) throws {
        try db.execute("CREATE TEMP TABLE written (column_name TEXT NOT NULL)")
        for column in ["status", "agent_id", "category"] {
            try db.execute("""
                CREATE TEMP TRIGGER written_\(column) AFTER UPDATE OF \(column) ON timeline BEGIN
                    INSERT INTO written (column_name) VALUES ('\(column)');
                END
                """)
        }
    }

    /// The columns written since the last call, in order.
    private func takeWritten(_ db: Database) throws -> [String] {
        let statement = try db.prepare("SELECT column_name FROM written ORDER BY rowid")
        var columns: [String] = []
        while try statement.step() == .row { columns.append(statement.string(0)) }
        try db.execute("DELETE FROM written")
        return columns
    }

    /// The timeline row's own columns (not the winning event's).
    private func stored(_ db: Database, task: String) throws -> String {
        let statement = try db.prepare("SELECT status, agent_id, coalesce(category, '-'), event_count FROM timeline WHERE task_id = ?1")
        try statement.bind(task, at: 1)
        #expect(try statement.step() == .row)
        return "\(statement.string(0)) \(statement.string(1)) \(statement.string(2)) \(statement.int(3))"
    }

    @Test func aNewWinnerWritesOnlyTheColumnsItChanges() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        try store.ingestEvents([makeEvent("a1", task: "A", second: 1, status: .inProgress, agent: "agent-1", category: "deploy")])
        try watchColumnWrites(store.db)

        // A step of the same agent, category and status: only the order moves.
        #expect(try store.ingestEvents([makeEvent("a2", task: "A", second: 2, status: .inProgress, agent: "agent-1",
                                                  category: "deploy")]) == [.replaced])
        #expect(try takeWritten(store.db) == [])
        #expect(try stored(store.db, task: "A") == "in_progress agent-1 deploy 2")

        // The end: the status alone.
        try store.ingestEvents([makeEvent("a3", task: "A", second: 3, status: .success, agent: "agent-1", category: "deploy")])
        #expect(try takeWritten(store.db) == ["status"])
        #expect(try stored(store.db, task: "A") == "success agent-1 deploy 3")

        // Another agent, then no category: each column when it changes.
        try store.ingestEvents([makeEvent("a4", task: "A", second: 4, status: .success, agent: "agent-2", category: "deploy")])
        #expect(try takeWritten(store.db) == ["agent_id"])
        try store.ingestEvents([makeEvent("a5", task: "A", second: 5, status: .error, agent: "agent-2")])
        #expect(try takeWritten(store.db) == ["status", "category"])
        #expect(try stored(store.db, task: "A") == "error agent-2 - 5")

        // Within one batch: compared with the stored row, not with the batch's earlier winners.
        try store.ingestEvents([
            makeEvent("a6", task: "A", second: 6, status: .warning, agent: "agent-3", category: "email"),
            makeEvent("a7", task: "A", second: 7, status: .error, agent: "agent-2"),
        ])
        #expect(try takeWritten(store.db) == [])
        #expect(try stored(store.db, task: "A") == "error agent-2 - 7")

        // An older event changes the count only; the kept counts follow every write.
        try store.ingestEvents([makeEvent("a0", task: "A", second: 0, status: .info, agent: "agent-9", category: "x")])
        #expect(try takeWritten(store.db) == [])
        #expect(try stored(store.db, task: "A") == "error agent-2 - 8")
        #expect(try store.db.scalarInt("SELECT count(*) FROM timeline_values WHERE kind = 'agent' AND value = 'agent-2' AND tasks = 1") == 1)
        #expect(try store.db.scalarInt("SELECT count(*) FROM timeline_values") == 1)
        #expect(try store.db.scalarInt("SELECT tasks FROM task_counts WHERE status = 'error'") == 1)
        #expect(try store.db.scalarInt("SELECT sum(tasks) FROM task_counts") == 1)
    }
}

/// The hand-off between a bulk import's reading thread and its storing thread.
@Suite("TimelineStore batch hand-off")
struct BatchHandoffTests {
    @Test func batchesArriveInOrderThenNil() throws {
        let handoff = BatchHandoff<Int>()
        Thread {
            for batch in 1...50 { #expect(handoff.put(batch)) }
            handoff.finish()
        }.start()
        var received: [Int] = []
        while let batch = handoff.take() { received.append(batch) }
        #expect(received == Array(1...50))
        #expect(handoff.take() == nil)
    }

    @Test func putReturnsOnlyOnceItsBatchIsTaken() throws {
        let handoff = BatchHandoff<Int>()
        let handedOver = DispatchSemaphore(value: 0)
        Thread {
            #expect(handoff.put(1))
            handedOver.signal()
        }.start()
        // Until batch 1 is taken the producer waits, so it cannot prepare a third batch meanwhile (a bounded
        // wait for what must not happen: under load it may show little, it never fails a correct hand-off).
        #expect(handedOver.wait(timeout: .now() + .milliseconds(200)) == .timedOut)
        #expect(handoff.take() == 1)
        #expect(handedOver.wait(timeout: .now() + .seconds(30)) == .success)
    }

    @Test func cancelStopsAWaitingProducer() throws {
        let handoff = BatchHandoff<Int>()
        let refused = DispatchSemaphore(value: 0)
        Thread {
            if !handoff.put(1) { refused.signal() }
        }.start()
        handoff.cancel()
        #expect(refused.wait(timeout: .now() + .seconds(30)) == .success)
        #expect(handoff.take() == nil)
        #expect(!handoff.put(2))
    }
}
