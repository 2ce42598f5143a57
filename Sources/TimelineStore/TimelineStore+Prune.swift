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

/// How much one write transaction of `prune` does: small enough that a poller's commit or a reader of this
/// process waits for at most one batch, large enough that a 10-million-event prune is not all commits.
struct PruneBatching {
    /// Whole tasks deleted per transaction (each with its events, index entry and marks).
    var tasks = 1_000
    /// Whole tasks removed per transaction before a prune by copy, which leaves their events to the copy (a
    /// row, its index entries and marks each). The unique index of task ids is in no order of age, so every
    /// transaction rewrites up to all of that index's pages: at 10,000,000 events (500,000 tasks, 3,092
    /// pages) batches of 1,000 had written 9 GB through the WAL and back before half the tasks were gone;
    /// batches this large wrote 1.8 GB for the whole step, in transactions of about 1.5 s of CPU each (a
    /// poller's commit waits that long, well within its busy timeout).
    var tasksWithoutEvents = 50_000
    /// Range of event `seq`s scanned per transaction for old events of the tasks that stay.
    var eventSpan: Int64 = 50_000
    /// Rejected messages deleted per transaction.
    var rejected = 5_000
    /// Share of the events a prune must remove (estimated) for it to copy the kept events into a new table
    /// (`pruneByCopy`) instead of deleting the old ones one by one: a delete costs a row and two index
    /// entries, a copy one row written and a sorted index build, so copying wins well before this.
    var copyAbove = 0.5
    /// Rows of the old events table deleted per transaction after a copy (it has no indexes by then), when
    /// the file is not rebuilt next (with `reclaimSpace` it is dropped in one transaction).
    var dropSpan: Int64 = 100_000
    /// Pause after each transaction, the write lock free: a writer of another process (a poller) waiting on
    /// SQLite's busy handler only looks again every few to 100 ms, and back-to-back transactions starved it
    /// (waits of 2.3 s within a 7 s prune); a short gap lets it in within about a second.
    var pause: Duration = .milliseconds(5)
    /// Called after each transaction, with the store's lock released (tests write from elsewhere there).
    var afterEachBatch: () throws -> Void = {}
}

extension TimelineStore {
    /// Deletes events whose timestamp is before `cutoffMicros`, and rejected messages received before it.
    ///
    /// A task's newest event (its timeline row) is never deleted unless the whole task is older than the
    /// cutoff; then the task goes whole (row, index entry, mark). With `keepRunning`, tasks whose current
    /// status is `in_progress` are kept whole whatever their age.
    ///
    /// The work is done in many short write transactions (`PruneBatching`), the store's lock released
    /// between them, so the poller's commits and this process's readers get through while a large history
    /// is pruned; each batch is consistent on its own (a crash or an error keeps what earlier batches
    /// removed).
    /// When at least `copyAbove` of the events go, the kept ones are copied into a new table instead
    /// (`pruneByCopy`); otherwise each old event is deleted.
    ///
    /// `reclaimSpace` then rebuilds the file (VACUUM) and writes the WAL back, so it shrinks; without it
    /// freed pages stay in the file and new events reuse them. The trade-off: files are made without
    /// auto-vacuum, so VACUUM is the only way bytes go back to the OS. It rewrites only what is kept (after a
    /// large prune, a tenth of the file) and never blocks readers (WAL: they read their snapshot), but it is
    /// one write transaction: a poller's commit waits for it, and past its busy timeout holds its batch on
    /// SQS and stores it again later (nothing lost). Incremental auto-vacuum would give pages back in bounded
    /// steps, but costs every later write its pointer-map upkeep and needs this same VACUUM once to turn on.
    ///
    /// Call it on a thread that runs as upkeep (`runThisThreadAsUpkeep`): a prune is CPU work of a minute at
    /// 10,000,000 events, and a viewer's frames beside it must not wait for a core.
    public func prune(olderThan cutoffMicros: Int64, keepRunning: Bool, reclaimSpace: Bool) throws -> PruneReport {
        try prune(olderThan: cutoffMicros, keepRunning: keepRunning, reclaimSpace: reclaimSpace, batching: PruneBatching())
    }

    func prune(olderThan cutoffMicros: Int64, keepRunning: Bool, reclaimSpace: Bool,
               batching: PruneBatching) throws -> PruneReport {
        let before = Self.fileSize(path) + Self.fileSize(path + "-wal")
        let scrubbing = reclaimSpace ? try overwritingFreedPagesOnlyWhenWritten() : nil
        defer { if let scrubbing { try? locked { try db.execute("PRAGMA secure_delete = \(scrubbing)") } } }
        let tasks: (tasks: Int, events: Int), events: Int
        if try estimatedPrunedShare(olderThan: cutoffMicros) >= batching.copyAbove {
            tasks = try pruneByCopy(olderThan: cutoffMicros, keepRunning: keepRunning, reclaimSpace: reclaimSpace,
                                    batching: batching)
            events = 0
        } else {
            tasks = try pruneWholeTasks(olderThan: cutoffMicros, keepRunning: keepRunning, batching: batching)
            events = try pruneOldEvents(olderThan: cutoffMicros, keepRunning: keepRunning, batching: batching)
        }
        let rejected = try pruneRejected(olderThan: cutoffMicros, batching: batching)
        if reclaimSpace {
            // `checkpoint()` waits out a background checkpoint (a checkpoint here would return busy at once,
            // silently): the file only shrinks once the VACUUM's last frame is copied back.
            try checkpoint()
            try locked { try db.execute("VACUUM") }
            try checkpoint()
        }
        return PruneReport(eventsDeleted: tasks.events + events, tasksDeleted: tasks.tasks, rejectedDeleted: rejected,
                           bytesBefore: before, bytesAfter: Self.fileSize(path) + Self.fileSize(path + "-wal"))
    }

    /// Lowers the calling thread's CPU priority to that of the store's background jobs, for good: for a
    /// thread whose whole job is upkeep (`timeline prune`, the retention timer). Measured beside the TUI on
    /// a loaded machine, the slow frames during a prune were the viewer's threads waiting for a core (not
    /// for a lock): a prune at the same priority took one of the two.
    public static func runThisThreadAsUpkeep() {
        BackgroundJob.lowerThisThreadsPriority()
    }

    /// `PRAGMA cache_size` while a prune by copy runs (negative: KiB; the daily retention prune deletes
    /// instead and keeps the connection's cache, so a viewer's memory does not grow). A transaction that
    /// removes whole tasks before a copy (`tasksWithoutEvents`) touches some 5,000 pages, most of them at
    /// random in the task-id index: in the connection's usual cache (`pageCacheKiB`) its changed pages spill
    /// to the WAL before the commit and are read back and written again.
    static let prunePageCacheKiB: Int64 = -131_072

    /// Sets `secure_delete` to FAST for this connection and returns the setting it had. Where SQLite is built
    /// with secure delete on (Debian's is), every page a prune frees is overwritten with zeros: the pages of
    /// the events dropped after a copy, 90 % of the file, written to the WAL and back for nothing when the
    /// rebuild that follows leaves every free page out of the file anyway. FAST still clears deleted content
    /// in the pages a prune writes.
    private func overwritingFreedPagesOnlyWhenWritten() throws -> Int64 {
        try locked {
            let setting = try db.scalarInt("PRAGMA secure_delete")
            try db.execute("PRAGMA secure_delete = FAST")
            return setting
        }
    }

    /// One short write transaction of a prune, alone among this process's writers of the file.
    func pruneStep<T>(_ batching: PruneBatching, _ body: () throws -> T) throws -> T {
        let result = try locked { try WriteGate.shared(path: db.path).withWriteLock { try db.transaction(body) } }
        if batching.pause > .zero { Thread.sleep(forTimeInterval: Double(batching.pause.components.attoseconds) / 1e18
                                                    + Double(batching.pause.components.seconds)) }
        try batching.afterEachBatch()
        return result
    }

    /// Tasks whose current event is older than the cutoff, `batching.tasks` at a time: their kept counts,
    /// index entries (removed with the exact text they were made from: that of `indexed_seq`), events, rows,
    /// marks and read marks. With `deleteEvents` false (a prune by copy) the events stay, owned by no row, until
    /// the copy leaves them out, and `batching.tasksWithoutEvents` go per transaction.
    func pruneWholeTasks(olderThan cutoffMicros: Int64, keepRunning: Bool, batching: PruneBatching,
                         deleteEvents: Bool = true) throws -> (tasks: Int, events: Int) {
        let running = keepRunning ? " AND status <> '\(Status.inProgress.rawValue)'" : ""
        let perBatch = deleteEvents ? batching.tasks : batching.tasksWithoutEvents
        var tasks = 0, events = 0
        while true {
            let batch: (tasks: Int, events: Int) = try pruneStep(batching) {
                // Index waiting rows first when old events are deleted here: a row's index entry is removed
                // with the text of the event it was indexed from, which may be an old event about to go.
                if deleteEvents {
                    while try SearchIndexer(db: db).indexWaitingRows(limit: Self.searchIndexChunk) > 0 {}
                }
                try db.run("""
                    CREATE TEMP TABLE prune_tasks AS SELECT row_id, indexed_seq FROM timeline
                    WHERE ts_us < ?\(running) LIMIT \(perBatch)
                    """, [.integer(cutoffMicros)])
                defer { try? db.execute("DROP TABLE IF EXISTS temp.prune_tasks") }
                let found = Int(try db.scalarInt("SELECT count(*) FROM temp.prune_tasks"))
                if found == 0 { return (0, 0) }
                try KeptCounts.removeRows(selectedBy: "SELECT row_id FROM temp.prune_tasks", in: db)
                try db.execute("""
                    INSERT INTO search (search, rowid, title, body, agent_id, task_id, category)
                        SELECT 'delete', p.row_id, \(SearchIndexer.indexedValues(of: "e"))
                        FROM temp.prune_tasks p JOIN events e ON e.seq = p.indexed_seq;
                    DELETE FROM marks WHERE task_id IN
                        (SELECT t.task_id FROM timeline t WHERE t.row_id IN (SELECT row_id FROM temp.prune_tasks));
                    DELETE FROM read_marks WHERE task_row IN (SELECT row_id FROM temp.prune_tasks);
                    """)
                var deletedEvents = 0
                if deleteEvents {
                    let pruned = "task_row IN (SELECT row_id FROM temp.prune_tasks)"
                    for sql in EventIDIndex.removeSQL(eventsWhere: pruned) { try db.execute(sql) }
                    try db.execute("DELETE FROM events WHERE " + pruned)
                    deletedEvents = Int(db.changes)
                }
                try db.execute("DELETE FROM timeline WHERE row_id IN (SELECT row_id FROM temp.prune_tasks)")
                return (found, deletedEvents)
            }
            tasks += batch.tasks
            events += batch.events
            if batch.tasks < perBatch { return (tasks, events) }
        }
    }

    /// Old events of the tasks that stay (never a task's current event), one `batching.eventSpan` range of
    /// seqs per transaction, so each transaction's scan is bounded; each touched task's count is redone.
    private func pruneOldEvents(olderThan cutoffMicros: Int64, keepRunning: Bool, batching: PruneBatching) throws -> Int {
        // Kept: the task's current event, and with `keepRunning` every event of a running task (a lookup by
        // the timeline's primary key per old event, not a set of every task built per transaction).
        let running = keepRunning ? " OR t.status = '\(Status.inProgress.rawValue)'" : ""
        let old = """
            seq >= ? AND seq < ? AND ts_us < ? AND NOT EXISTS
                (SELECT 1 FROM timeline t WHERE t.row_id = events.task_row AND (t.seq = events.seq\(running)))
            """
        let last = try locked { try db.scalarInt("SELECT coalesce(max(seq), 0) FROM events") }
        var deleted = 0
        var low: Int64 = 0
        while low <= last {
            let high = low + batching.eventSpan
            let range: [SQLiteValue] = [.integer(low), .integer(high), .integer(cutoffMicros)]
            deleted += try pruneStep(batching) {
                try db.run("CREATE TEMP TABLE prune_touched AS SELECT DISTINCT task_row FROM events WHERE " + old, range)
                defer { try? db.execute("DROP TABLE IF EXISTS temp.prune_touched") }
                for sql in EventIDIndex.removeSQL(eventsWhere: old) { try db.run(sql, range) }
                try db.run("DELETE FROM events WHERE " + old, range)
                let count = Int(db.changes)
                if count > 0 {
                    try db.execute("""
                        UPDATE timeline SET event_count = (SELECT count(*) FROM events e WHERE e.task_row = timeline.row_id)
                        WHERE row_id IN (SELECT task_row FROM temp.prune_touched)
                        """)
                }
                return count
            }
            low = high
        }
        return deleted
    }

    /// Rejected messages received before the cutoff, `batching.rejected` at a time.
    private func pruneRejected(olderThan cutoffMicros: Int64, batching: PruneBatching) throws -> Int {
        var deleted = 0
        while true {
            let count = try pruneStep(batching) {
                try db.run("""
                    DELETE FROM rejected WHERE rowid IN
                        (SELECT rowid FROM rejected WHERE received_us < ? LIMIT \(batching.rejected))
                    """, [.integer(cutoffMicros)])
                return Int(db.changes)
            }
            deleted += count
            if count < batching.rejected { return deleted }
        }
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
