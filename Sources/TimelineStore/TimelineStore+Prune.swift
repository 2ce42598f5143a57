import Foundation
import TimelineCore

/// What `prune` removed.
public struct PruneReport: Sendable, Equatable {
    public var eventsDeleted: Int
    /// Tasks removed whole (every event older than the cutoff).
    public var tasksDeleted: Int
    public var rejectedDeleted: Int
    public var bytesBefore: Int64
    public var bytesAfter: Int64
}

extension TimelineStore {
    /// Deletes events whose timestamp is before `cutoffMicros`, and rejected messages received before it.
    ///
    /// A task's newest event (its timeline row) is never deleted unless the whole task is older than the
    /// cutoff; then the task goes whole (row, index entry, mark). With `keepRunning`, tasks whose current
    /// status is `in_progress` are kept whole whatever their age. `reclaimSpace` then writes the WAL back
    /// and rebuilds the file (VACUUM) so it shrinks; without it freed pages are reused by new events.
    public func prune(olderThan cutoffMicros: Int64, keepRunning: Bool, reclaimSpace: Bool) throws -> PruneReport {
        let before = try stats().fileBytes
        let running = keepRunning ? " AND status <> '\(Status.inProgress.rawValue)'" : ""
        let counts: (events: Int, tasks: Int, rejected: Int) = try locked {
            try db.transaction {
                // Index every waiting row first: a row's index entry is removed with the text of the event
                // it was indexed from, which may be an old event about to be deleted.
                while try SearchIndexer(db: db).indexWaitingRows(limit: Self.searchIndexChunk) > 0 {}
                let eventsBefore = try db.scalarInt("SELECT count(*) FROM events")
                try db.run("CREATE TEMP TABLE prune_tasks AS SELECT row_id, seq FROM timeline WHERE ts_us < ?\(running)",
                           [.integer(cutoffMicros)])
                defer { try? db.execute("DROP TABLE IF EXISTS temp.prune_tasks; DROP TABLE IF EXISTS temp.prune_touched") }
                let tasks = try db.scalarInt("SELECT count(*) FROM temp.prune_tasks")
                // Whole tasks: their index entries (with the exact indexed text), events, rows and marks.
                try db.execute("""
                    INSERT INTO search (search, rowid, title, body, agent_id, task_id, category)
                        SELECT 'delete', p.row_id, \(SearchIndexer.indexedValues(of: "e"))
                        FROM temp.prune_tasks p JOIN events e ON e.seq = p.seq;
                    DELETE FROM marks WHERE task_id IN
                        (SELECT t.task_id FROM timeline t WHERE t.row_id IN (SELECT row_id FROM temp.prune_tasks));
                    DELETE FROM read_marks WHERE task_row IN (SELECT row_id FROM temp.prune_tasks);
                    DELETE FROM events WHERE task_row IN (SELECT row_id FROM temp.prune_tasks);
                    DELETE FROM timeline WHERE row_id IN (SELECT row_id FROM temp.prune_tasks);
                    """)
                // Old events of the remaining tasks, never a task's current (newest) event.
                let keptTasks = keepRunning
                    ? " AND task_row NOT IN (SELECT row_id FROM timeline WHERE status = '\(Status.inProgress.rawValue)')" : ""
                let old = "ts_us < ? AND seq NOT IN (SELECT seq FROM timeline)" + keptTasks
                try db.run("CREATE TEMP TABLE prune_touched AS SELECT DISTINCT task_row FROM events WHERE " + old,
                           [.integer(cutoffMicros)])
                try db.run("DELETE FROM events WHERE " + old, [.integer(cutoffMicros)])
                try db.execute("""
                    UPDATE timeline SET event_count = (SELECT count(*) FROM events e WHERE e.task_row = timeline.row_id)
                    WHERE row_id IN (SELECT task_row FROM temp.prune_touched)
                    """)
                let events = Int(eventsBefore - (try db.scalarInt("SELECT count(*) FROM events")))
                try db.run("DELETE FROM rejected WHERE received_us < ?", [.integer(cutoffMicros)])
                return (events, Int(tasks), Int(db.changes))
            }
        }
        if reclaimSpace {
            try locked {
                try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                try db.execute("VACUUM")
                try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            }
        }
        return PruneReport(eventsDeleted: counts.events, tasksDeleted: counts.tasks, rejectedDeleted: counts.rejected,
                           bytesBefore: before, bytesAfter: try stats().fileBytes)
    }

    /// Time of the oldest stored event (microseconds), nil when there is none.
    public func oldestEventMicros() throws -> Int64? {
        try locked {
            let statement = try db.cached("SELECT min(ts_us) FROM events")
            defer { statement.reset() }
            guard try statement.step() == .row, !statement.isNull(0) else { return nil }
            return statement.int64(0)
        }
    }
}
