import TimelineCore

/// Timeline rows per status, kept in `task_counts` by triggers on `timeline` (schema 11): counts of the
/// whole timeline or of statuses alone (`timeline list`'s total, `timeline status`, the header) read a few
/// rows instead of counting every task. Every write to `timeline` (ingest, restore, prune) keeps it exact.
/// Creating it again recounts (a file whose version was set back migrates again). A large ingest batch
/// applies what these triggers would once, with them off (`KeptCountChanges`; a test holds the two equal).
enum TaskCounts {
    static let createSQL = """
        CREATE TABLE IF NOT EXISTS task_counts (
            status TEXT PRIMARY KEY,
            tasks  INTEGER NOT NULL
        ) WITHOUT ROWID;
        DELETE FROM task_counts;
        INSERT INTO task_counts (status, tasks) SELECT status, count(*) FROM timeline GROUP BY status;
        CREATE TRIGGER IF NOT EXISTS task_counts_insert AFTER INSERT ON timeline BEGIN
            INSERT INTO task_counts (status, tasks) VALUES (new.status, 1)
                ON CONFLICT (status) DO UPDATE SET tasks = tasks + 1;
        END;
        CREATE TRIGGER IF NOT EXISTS task_counts_delete AFTER DELETE ON timeline BEGIN
            UPDATE task_counts SET tasks = tasks - 1 WHERE status = old.status;
        END;
        CREATE TRIGGER IF NOT EXISTS task_counts_update AFTER UPDATE OF status ON timeline WHEN old.status IS NOT new.status BEGIN
            UPDATE task_counts SET tasks = tasks - 1 WHERE status = old.status;
            INSERT INTO task_counts (status, tasks) VALUES (new.status, 1)
                ON CONFLICT (status) DO UPDATE SET tasks = tasks + 1;
        END;
        """

    /// The statuses `query` keeps when statuses are all it filters on; nil when it says anything else.
    static func statusesOnly(_ query: TimelineQuery) -> Set<Status>? {
        var rest = query
        rest.statuses = []
        rest.excludedStatuses = []
        guard rest.isEmpty else { return nil }
        return (query.statuses.isEmpty ? Set(Status.allCases) : query.statuses).subtracting(query.excludedStatuses)
    }
}

extension TimelineStore {
    /// Whether `count(matching:)` of `query` reads kept counts (cheap at any history size).
    public func keepsCount(of query: TimelineQuery) -> Bool {
        TaskCounts.statusesOnly(query) != nil
    }

    /// Timeline rows per status, from `task_counts` (caller holds the lock).
    func keptTaskCounts() throws -> [Status: Int] {
        let statement = try db.cached("SELECT status, tasks FROM task_counts WHERE tasks > 0")
        defer { statement.reset() }
        var counts: [Status: Int] = [:]
        while try statement.step() == .row {
            if let status = Status(rawValue: statement.string(0)) { counts[status] = statement.int(1) }
        }
        return counts
    }
}
