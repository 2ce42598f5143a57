import TimelineCore

/// What a batch's timeline row writes do to the kept counts (`TaskCounts`, `TimelineValues`,
/// `UnreadErrors`), gathered row by row and applied in a few statements, for a batch that writes its rows
/// with the triggers off (`BatchWriter.writeTimelineRows`).
///
/// Each row write adds exactly what its triggers would: a new row counts its status, agent and category;
/// a new winner moves its task from the stored status, agent or category to its own where they differ.
/// The tables end as the triggers leave them, rows of no task included: a status once counted keeps its
/// row at 0, an agent or category whose last task went loses its row.
struct KeptCountChanges {
    /// Net change per status, and the statuses a row was added to (the trigger's upsert may create theirs).
    private var statuses: [String: Int64] = [:]
    private var statusesAdded: Set<String> = []
    /// Net change per (kind, value) of `timeline_values`, and the values a row left (they may lose theirs).
    private var values: [ValueKey: Int64] = [:]
    private var valuesRemoved: Set<ValueKey> = []
    /// Row ids of updated rows whose stored winner is an error, and of rows whose new winner is one: the
    /// unread error count changes by how many of the second are unread after the writes minus how many of
    /// the first were before (the rule of `UnreadErrors.unreadNow`, read through SQL).
    private(set) var storedErrorRows: [Int64] = []
    private(set) var winningErrorRows: [Int64] = []

    private struct ValueKey: Hashable {
        var kind: String
        var value: String
    }

    var isEmpty: Bool { statuses.isEmpty && values.isEmpty && storedErrorRows.isEmpty && winningErrorRows.isEmpty }

    /// A new row (`stored == nil`) or a row's new winner, as `writeTimelineRows` writes it.
    mutating func write(rowID: Int64, stored: (status: String, agentID: String, category: String?)?,
                        winner: (status: String, agentID: String, category: String?)) {
        if let stored {
            if stored.status != winner.status {
                statuses[stored.status, default: 0] -= 1
                add(status: winner.status)
            }
            if stored.agentID != winner.agentID {
                remove(TimelineValues.agent, stored.agentID)
                add(TimelineValues.agent, winner.agentID)
            }
            if stored.category != winner.category {
                if let old = stored.category { remove(TimelineValues.category, old) }
                if let new = winner.category { add(TimelineValues.category, new) }
            }
            if stored.status == Status.error.rawValue { storedErrorRows.append(rowID) }
        } else {
            add(status: winner.status)
            add(TimelineValues.agent, winner.agentID)
            if let category = winner.category { add(TimelineValues.category, category) }
        }
        if winner.status == Status.error.rawValue { winningErrorRows.append(rowID) }
    }

    private mutating func add(status: String) {
        statuses[status, default: 0] += 1
        statusesAdded.insert(status)
    }

    private mutating func add(_ kind: String, _ value: String) {
        values[ValueKey(kind: kind, value: value), default: 0] += 1
    }

    private mutating func remove(_ kind: String, _ value: String) {
        let key = ValueKey(kind: kind, value: value)
        values[key, default: 0] -= 1
        valuesRemoved.insert(key)
    }

    /// How many of the timeline rows `rowIDs` are unread errors now (`UnreadErrors.unreadRowsSQL`).
    static func unreadErrors(in db: Database, rows rowIDs: [Int64]) throws -> Int64 {
        if rowIDs.isEmpty { return 0 }
        let list = "[" + rowIDs.map(String.init).joined(separator: ",") + "]"
        return try db.scalarInt(UnreadErrors.unreadRowsSQL, [.text(list)])
    }

    /// Applies the counted changes, and `unreadDelta` to the unread error count.
    func apply(to db: Database, unreadDelta: Int64) throws {
        let addStatus = try db.cached("""
            INSERT INTO task_counts (status, tasks) VALUES (?1, ?2) ON CONFLICT (status) DO UPDATE SET tasks = tasks + ?2
            """)
        let changeStatus = try db.cached("UPDATE task_counts SET tasks = tasks + ?2 WHERE status = ?1")
        for (status, delta) in statuses.sorted(by: { $0.key < $1.key }) {
            let statement = statusesAdded.contains(status) ? addStatus : changeStatus
            try statement.bind(status, at: 1)
            try statement.bind(delta, at: 2)
            try statement.run()
        }
        let addValue = try db.cached("""
            INSERT INTO timeline_values (kind, value, tasks) VALUES (?1, ?2, ?3)
            ON CONFLICT (kind, value) DO UPDATE SET tasks = tasks + ?3
            """)
        let changeValue = try db.cached("UPDATE timeline_values SET tasks = tasks + ?3 WHERE kind = ?1 AND value = ?2")
        let dropValue = try db.cached("DELETE FROM timeline_values WHERE kind = ?1 AND value = ?2 AND tasks <= 0")
        for (key, delta) in values.sorted(by: { ($0.key.kind, $0.key.value) < ($1.key.kind, $1.key.value) }) {
            // A value some row was added to is created if missing (the insert's upsert); one only left is
            // updated where it exists, and dropped once no task holds it (the removal's delete).
            let removed = valuesRemoved.contains(key)
            let statement = removed && delta < 0 ? changeValue : addValue
            try statement.bind(key.kind, at: 1)
            try statement.bind(key.value, at: 2)
            try statement.bind(delta, at: 3)
            try statement.run()
            if removed {
                try dropValue.bind(key.kind, at: 1)
                try dropValue.bind(key.value, at: 2)
                try dropValue.run()
            }
        }
        if unreadDelta != 0 {
            let unread = try db.cached("UPDATE unread_errors SET tasks = tasks + ?1")
            try unread.bind(unreadDelta, at: 1)
            try unread.run()
        }
    }
}
