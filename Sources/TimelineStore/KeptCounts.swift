import TimelineCore

/// The kept counts (`TaskCounts`, `TimelineValues`, `UnreadErrors`) and the one rule of how each write
/// changes them (schema 14: no triggers). Every path that writes `timeline` rows, `read_marks` or the
/// `read_all_seq` watermark keeps them exact here, in its own transaction:
/// - a batch of row writes (ingest, restore) gathers what its rows change (`write`) and applies it in a
///   few statements (`apply`), the unread errors counted over its error rows before and after;
/// - read marks written for some rows (mark read, restore) count those rows before and after
///   (`changingReadMarks`);
/// - rows about to be deleted (prune) are subtracted with one GROUP BY each (`removeRows`);
/// - the `U` watermark recounts the unread errors (`recountUnreadErrors`: after `U` nothing is unread, so
///   the walk is short); a migration recounts everything (`recount`).
///
/// The tables always equal their recount from scratch: no row of zero (a status, agent or category no
/// task holds has no row).
struct KeptCounts {
    /// Net change per status.
    private var statuses: [String: Int64] = [:]
    /// Net change per (kind, value) of `timeline_values`.
    private var values: [ValueKey: Int64] = [:]
    /// Row ids of updated rows whose stored winner is an error, and of rows whose new winner is one: the
    /// unread error count changes by how many of the second are unread after the writes minus how many of
    /// the first were before (the rule of `UnreadErrors.unreadRowsSQL`).
    private(set) var storedErrorRows: [Int64] = []
    private(set) var winningErrorRows: [Int64] = []

    private struct ValueKey: Hashable {
        var kind: String
        var value: String
    }

    /// A new row (`stored == nil`) or a row's new winner, as `BatchWriter.writeTimelineRows` writes it.
    mutating func write(rowID: Int64, stored: (status: String, agentID: String, category: String?)?,
                        winner: (status: String, agentID: String, category: String?)) {
        if let stored {
            if stored.status != winner.status {
                statuses[stored.status, default: 0] -= 1
                statuses[winner.status, default: 0] += 1
            }
            if stored.agentID != winner.agentID {
                change(TimelineValues.agent, stored.agentID, by: -1)
                change(TimelineValues.agent, winner.agentID, by: 1)
            }
            if stored.category != winner.category {
                if let old = stored.category { change(TimelineValues.category, old, by: -1) }
                if let new = winner.category { change(TimelineValues.category, new, by: 1) }
            }
            if stored.status == Status.error.rawValue { storedErrorRows.append(rowID) }
        } else {
            statuses[winner.status, default: 0] += 1
            change(TimelineValues.agent, winner.agentID, by: 1)
            if let category = winner.category { change(TimelineValues.category, category, by: 1) }
        }
        if winner.status == Status.error.rawValue { winningErrorRows.append(rowID) }
    }

    private mutating func change(_ kind: String, _ value: String, by delta: Int64) {
        values[ValueKey(kind: kind, value: value), default: 0] += delta
    }

    /// How many of the timeline rows `rowIDs` are unread errors now (`UnreadErrors.unreadRowsSQL`).
    static func unreadErrors(in db: Database, rows rowIDs: [Int64]) throws -> Int64 {
        if rowIDs.isEmpty { return 0 }
        return try db.scalarInt(UnreadErrors.unreadRowsSQL, [.text(JSONIntegers.array(rowIDs))])
    }

    /// Applies the gathered changes, and `unreadDelta` to the unread error count. A count that falls to
    /// zero loses its row.
    func apply(to db: Database, unreadDelta: Int64) throws {
        if !statuses.isEmpty {
            let add = try db.cached("""
                INSERT INTO task_counts (status, tasks) VALUES (?1, ?2) ON CONFLICT (status) DO UPDATE SET tasks = tasks + ?2
                """)
            let drop = try db.cached("DELETE FROM task_counts WHERE status = ?1 AND tasks <= 0")
            for (status, delta) in statuses.sorted(by: { $0.key < $1.key }) where delta != 0 {
                try add.bind(status, at: 1)
                try add.bind(delta, at: 2)
                try add.run()
                if delta < 0 {
                    try drop.bind(status, at: 1)
                    try drop.run()
                }
            }
        }
        if !values.isEmpty {
            let add = try db.cached("""
                INSERT INTO timeline_values (kind, value, tasks) VALUES (?1, ?2, ?3)
                ON CONFLICT (kind, value) DO UPDATE SET tasks = tasks + ?3
                """)
            let drop = try db.cached("DELETE FROM timeline_values WHERE kind = ?1 AND value = ?2 AND tasks <= 0")
            for (key, delta) in values.sorted(by: { ($0.key.kind, $0.key.value) < ($1.key.kind, $1.key.value) })
            where delta != 0 {
                try add.bind(key.kind, at: 1)
                try add.bind(key.value, at: 2)
                try add.bind(delta, at: 3)
                try add.run()
                if delta < 0 {
                    try drop.bind(key.kind, at: 1)
                    try drop.bind(key.value, at: 2)
                    try drop.run()
                }
            }
        }
        try Self.changeUnreadErrors(in: db, by: unreadDelta)
    }

    private static func changeUnreadErrors(in db: Database, by delta: Int64) throws {
        if delta == 0 { return }
        let unread = try db.cached("UPDATE unread_errors SET tasks = tasks + ?1")
        try unread.bind(delta, at: 1)
        try unread.run()
    }

    /// Runs `write`, which changes the read marks of the timeline rows `rowIDs` only, and keeps the unread
    /// error count: those rows counted before and after.
    static func changingReadMarks(ofRows rowIDs: [Int64], in db: Database, _ write: () throws -> Void) throws {
        let before = try unreadErrors(in: db, rows: rowIDs)
        try write()
        try changeUnreadErrors(in: db, by: try unreadErrors(in: db, rows: rowIDs) - before)
    }

    /// Subtracts the timeline rows that `rowsSQL` selects (a query of distinct `row_id`s) from every kept
    /// count, as they are about to be deleted: call it before their rows and read marks go. One GROUP BY per
    /// table, each row looked up by its id (CROSS JOIN: SQLite would otherwise walk the status index).
    static func removeRows(selectedBy rowsSQL: String, in db: Database) throws {
        let going = "FROM (\(rowsSQL)) AS going CROSS JOIN timeline t ON t.row_id = going.row_id"
        try db.execute("""
            UPDATE task_counts SET tasks = task_counts.tasks - gone.tasks
                FROM (SELECT t.status, count(*) AS tasks \(going) GROUP BY t.status) AS gone
                WHERE task_counts.status = gone.status;
            DELETE FROM task_counts WHERE tasks <= 0;
            UPDATE timeline_values SET tasks = timeline_values.tasks - gone.tasks
                FROM (SELECT '\(TimelineValues.agent)' AS kind, t.agent_id AS value, count(*) AS tasks \(going) GROUP BY t.agent_id
                      UNION ALL SELECT '\(TimelineValues.category)', t.category, count(*) \(going) WHERE t.category IS NOT NULL
                      GROUP BY t.category) AS gone
                WHERE timeline_values.kind = gone.kind AND timeline_values.value = gone.value;
            DELETE FROM timeline_values WHERE tasks <= 0;
            UPDATE unread_errors SET tasks = tasks - (SELECT count(*) \(going) WHERE \(UnreadErrors.unreadNow("t")));
            """)
    }

    /// Counts the unread errors again (after the `U` watermark moved).
    static func recountUnreadErrors(in db: Database) throws {
        try db.execute(UnreadErrors.recountSQL)
    }

    /// Counts every kept table again from the timeline (a migration).
    static func recount(in db: Database) throws {
        try db.execute(TaskCounts.recountSQL + TimelineValues.recountSQL + UnreadErrors.recountSQL)
    }
}
