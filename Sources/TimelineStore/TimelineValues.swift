/// The distinct agent ids and categories of the timeline, with how many tasks hold each, kept in
/// `timeline_values` (schema 13; by `KeptCounts` since schema 14). A qualifier (`agent:`, `host:`,
/// `category:`) is a substring test: it is tested against these few values first, and the timeline is then
/// read through the index of the values that match (`timeline_agent`, `timeline_category`) instead of
/// testing every row.
enum TimelineValues {
    /// The `kind` of agent ids (also searched by `host:`).
    static let agent = "agent"
    /// The `kind` of categories (a task without one adds nothing).
    static let category = "category"
    /// Most values a qualifier is resolved to; a needle matching more is tested row by row, as before.
    static let resolveLimit = 200

    static let createTableSQL = """
        CREATE TABLE IF NOT EXISTS timeline_values (
            kind  TEXT NOT NULL,
            value TEXT NOT NULL,
            tasks INTEGER NOT NULL,
            PRIMARY KEY (kind, value)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS timeline_agent ON timeline (agent_id, status, category);
        CREATE INDEX IF NOT EXISTS timeline_category ON timeline (category, status);
        """

    /// The values from scratch: what the table always equals (`kind`, `value`, `tasks`).
    static let countSQL = """
        SELECT '\(agent)', agent_id, count(*) FROM timeline GROUP BY agent_id
        UNION ALL SELECT '\(category)', category, count(*) FROM timeline WHERE category IS NOT NULL GROUP BY category
        """

    /// Counts the table again.
    static let recountSQL = "DELETE FROM timeline_values; INSERT INTO timeline_values (kind, value, tasks) \(countSQL);"
}
