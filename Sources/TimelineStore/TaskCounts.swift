import TimelineCore

/// Timeline rows per status, kept in `task_counts` (schema 11; by `KeptCounts` since schema 14): counts of the
/// whole timeline or of statuses alone (`timeline list`'s total, `timeline status`, the header) read a few
/// rows instead of counting every task.
enum TaskCounts {
    static let createTableSQL = """
        CREATE TABLE IF NOT EXISTS task_counts (
            status TEXT PRIMARY KEY,
            tasks  INTEGER NOT NULL
        ) WITHOUT ROWID;
        """

    /// The counts from scratch: what the table always equals (`status`, `tasks`).
    static let countSQL = "SELECT status, count(*) FROM timeline GROUP BY status"

    /// Counts the table again.
    static let recountSQL = "DELETE FROM task_counts; INSERT INTO task_counts (status, tasks) \(countSQL);"

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
