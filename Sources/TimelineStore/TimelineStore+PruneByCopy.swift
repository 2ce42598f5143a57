import TimelineCore

/// The prune of most of a history: the kept events are copied into a new table and the tables swapped,
/// instead of deleting each old event from the table and both its indexes (about 30 µs of CPU per event).
///
/// Steps, each its own short write transaction (`PruneBatching`), so this process's readers and a poller
/// wait for one step at most:
/// 1. tasks pruned whole lose their timeline row, index entry, mark and read mark, `tasksWithoutEvents`
///    per step (their events stay until the swap, owned by no row); when most tasks go, the whole index is
///    emptied first instead and the rows that stay are indexed again after the swap
///    (`clearSearchIndexIfMostTasksGo`);
/// 2. a new table `events_prune_copy` is made from the `events` table's own definition (`EventsTableShape`);
/// 3. the kept events are copied into it in `seq` order, one `eventSpan` range per step (one pass over
///    the range: the copy has no index yet, so each kept row is an append);
/// 4. the swap: events that arrived since step 2 are copied too, the
///    old indexes are dropped, `events` becomes `events_pruned` and the copy becomes `events`, its indexes
///    are built (a sorted build of the kept rows only) and the id index is made again from them
///    (`EventIDIndex.rebuild`), the events deleted are the two tables' counts' difference, and the rows
///    whose count changed get the new one;
/// 5. rows waiting for the full-text index are indexed, `searchIndexChunk` per step;
/// 6. `events_pruned` goes: dropped at once when the file is rebuilt next (`reclaimSpace`: the rebuild
///    rewrites what is kept anyway, so emptying it first would write its pages once more for nothing),
///    else emptied `dropSpan` rows at a time, then dropped.
///
/// Readers see the whole old history until step 4 commits and the pruned one after it: every step leaves a
/// consistent database, and a prune stopped anywhere (a crash, kill -9) leaves at most `events_prune_copy`
/// or `events_pruned` behind, which the next prune clears first.
extension TimelineStore {
    /// The new events table while the kept events are copied into it.
    static let pruneCopyTable = "events_prune_copy"
    /// The old events table after the swap, while it is emptied.
    static let prunedEventsTable = "events_pruned"

    /// Prunes by copying the kept events (see above); returns the tasks pruned whole and the events deleted.
    func pruneByCopy(olderThan cutoffMicros: Int64, keepRunning: Bool, reclaimSpace: Bool,
                     batching: PruneBatching) throws -> (tasks: Int, events: Int) {
        let cache = try locked { try db.scalarInt("PRAGMA cache_size") }
        try locked { try db.execute("PRAGMA cache_size = \(Self.prunePageCacheKiB)") }
        defer { try? locked { try db.execute("PRAGMA cache_size = \(cache)") } }
        try clearInterruptedPrune(batching: batching)
        try pruneStep(batching) { try clearSearchIndexIfMostTasksGo(olderThan: cutoffMicros, keepRunning: keepRunning) }
        let tasks = try pruneWholeTasks(olderThan: cutoffMicros, keepRunning: keepRunning, batching: batching,
                                        deleteEvents: false)
        let copy = EventsTableShape.quoted(Self.pruneCopyTable)
        let (first, last): (Int64, Int64) = try pruneStep(batching) {
            try db.execute("CREATE TABLE \(copy) \(try EventsTableShape.read(db).definition)")
            return (try db.scalarInt("SELECT coalesce(min(seq), 0) FROM events"),
                    try db.scalarInt("SELECT coalesce(max(seq), 0) FROM events"))
        }
        var low = first
        while low <= last {
            let high = low + batching.eventSpan
            try pruneStep(batching) {
                try copyKeptEvents(from: low, below: high, olderThan: cutoffMicros, keepRunning: keepRunning)
            }
            low = high
        }
        let deleted: Int = try pruneStep(batching) {
            try copyKeptEvents(from: low, below: .max, olderThan: cutoffMicros, keepRunning: keepRunning)
            let before = try db.scalarInt("SELECT count(*) FROM events")
            let shape = try EventsTableShape.read(db)
            for index in shape.indexes { try db.execute("DROP INDEX \(EventsTableShape.quoted(index.name))") }
            try db.execute("""
                ALTER TABLE events RENAME TO \(EventsTableShape.quoted(Self.prunedEventsTable));
                ALTER TABLE \(copy) RENAME TO events;
                """)
            for index in shape.indexes { try db.execute(index.sql) }
            try EventIDIndex.rebuild(in: db)
            try db.execute("""
                UPDATE timeline SET event_count = kept.events
                FROM (SELECT task_row, count(*) AS events FROM events GROUP BY task_row) AS kept
                WHERE timeline.row_id = kept.task_row AND timeline.event_count <> kept.events
                """)
            let after = try db.scalarInt("SELECT count(*) FROM events")
            return Int(before - after)
        }
        // Until a step finds fewer than a chunk waiting (rows a writer adds meanwhile are its to index).
        while try pruneStep(batching, { try SearchIndexer(db: db).indexWaitingRows(limit: Self.searchIndexChunk) })
            == Self.searchIndexChunk {}
        if reclaimSpace {
            try pruneStep(batching) { try db.execute("DROP TABLE \(EventsTableShape.quoted(Self.prunedEventsTable))") }
        } else {
            try dropPrunedEvents(batching: batching)
        }
        return (tasks.tasks, deleted)
    }

    /// Which events of `events` a prune keeps (SQL; `?1` is the cutoff): those at or after it, each task's
    /// current event, and with `keepRunning` every event of a running task. Events of tasks pruned whole
    /// have no timeline row any more, and go. The event a row's index entry was made from also stays (a row
    /// indexed late: its entry is removed with that text when the row is indexed again).
    private static func keptEvent(keepRunning: Bool) -> String {
        let running = keepRunning ? " OR t.status = '\(Status.inProgress.rawValue)'" : ""
        return """
            (events.ts_us >= ?1 OR EXISTS (SELECT 1 FROM timeline t
                WHERE t.row_id = events.task_row AND (t.seq = events.seq OR t.indexed_seq = events.seq\(running))))
            """
    }

    /// When at least half the tasks go whole, empties the full-text index and marks every row as waiting
    /// for it (one transaction): removing an entry costs about what adding one does, so indexing the rows
    /// that stay, after the swap, is cheaper than removing the others. Meanwhile searches find the waiting
    /// rows by LIKE (slower, same results), as after a bulk import.
    private func clearSearchIndexIfMostTasksGo(olderThan cutoffMicros: Int64, keepRunning: Bool) throws {
        let running = keepRunning ? " AND status <> '\(Status.inProgress.rawValue)'" : ""
        let going = try db.scalarInt("SELECT count(*) FROM timeline WHERE ts_us < ?1\(running)", [.integer(cutoffMicros)])
        let all = try db.scalarInt("SELECT coalesce(sum(tasks), 0) FROM task_counts")
        guard going > 0, going * 2 >= all else { return }
        try db.execute("""
            INSERT INTO search (search) VALUES ('delete-all');
            UPDATE timeline SET indexed_seq = NULL WHERE indexed_seq IS NOT NULL;
            """)
    }

    /// Copies the kept events with `seq` in `low..<high` into the copy table.
    private func copyKeptEvents(from low: Int64, below high: Int64, olderThan cutoffMicros: Int64,
                                keepRunning: Bool) throws {
        let columns = try EventsTableShape.read(db).storedColumns
        try db.run("""
            INSERT INTO \(EventsTableShape.quoted(Self.pruneCopyTable)) (\(columns))
            SELECT \(columns) FROM events WHERE events.seq >= ?2 AND events.seq < ?3 AND \(Self.keptEvent(keepRunning: keepRunning))
            ORDER BY events.seq
            """, [.integer(cutoffMicros), .integer(low), .integer(high)])
    }

    /// Drops what an interrupted prune left: a copy that was never swapped in, an old table not yet emptied.
    private func clearInterruptedPrune(batching: PruneBatching) throws {
        if try locked({ try tableExists(Self.pruneCopyTable) }) {
            try pruneStep(batching) { try db.execute("DROP TABLE \(EventsTableShape.quoted(Self.pruneCopyTable))") }
        }
        try dropPrunedEvents(batching: batching)
    }

    /// Empties `events_pruned` (no indexes left), `dropSpan` rows per step from its start, then drops it.
    private func dropPrunedEvents(batching: PruneBatching) throws {
        let table = EventsTableShape.quoted(Self.prunedEventsTable)
        guard try locked({ try tableExists(Self.prunedEventsTable) }) else { return }
        while true {
            let emptied: Bool = try pruneStep(batching) {
                try db.run("""
                    DELETE FROM \(table) WHERE seq < (SELECT coalesce(min(seq), 0) FROM \(table)) + ?1
                    """, [.integer(batching.dropSpan)])
                if try db.scalarInt("SELECT count(*) FROM (SELECT 1 FROM \(table) LIMIT 1)") > 0 { return false }
                try db.execute("DROP TABLE \(table)")
                return true
            }
            if emptied { return }
        }
    }

    /// Whether the main database has a table `name` (caller holds the lock).
    private func tableExists(_ name: String) throws -> Bool {
        let statement = try db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?1")
        try statement.bind(name, at: 1)
        return try statement.step() == .row
    }

    /// The share of events older than `cutoffMicros`, estimated from `samples` events spread evenly over
    /// the `seq` range (arrival order follows time closely enough for this; a point lookup each).
    func estimatedPrunedShare(olderThan cutoffMicros: Int64, samples: Int64 = 256) throws -> Double {
        try locked {
            let first = try db.scalarInt("SELECT coalesce(min(seq), 0) FROM events")
            let last = try db.scalarInt("SELECT coalesce(max(seq), 0) FROM events")
            if last <= first { return 0 }
            let probe = try db.cached("SELECT ts_us < ?1 FROM events WHERE seq >= ?2 ORDER BY seq LIMIT 1")
            defer { probe.reset() }
            var old = 0
            for step in 0..<samples {
                probe.reset()
                try probe.bind([.integer(cutoffMicros), .integer(first + (last - first) * step / samples)])
                if try probe.step() == .row, probe.int64(0) != 0 { old += 1 }
            }
            return Double(old) / Double(samples)
        }
    }
}
