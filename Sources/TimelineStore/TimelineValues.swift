/// The distinct agent ids and categories of the timeline, with how many tasks hold each, kept in
/// `timeline_values` by triggers (schema 13). A qualifier (`agent:`, `host:`, `category:`) is a substring
/// test: it is tested against these few values first, and the timeline is then read through the index of
/// the values that match (`timeline_agent`, `timeline_category`) instead of testing every row.
/// Creating it again recounts (a file whose version was set back migrates again). A large ingest batch
/// applies what these triggers would once, with them off (`KeptCountChanges`; a test holds the two equal).
enum TimelineValues {
    /// The `kind` of agent ids (also searched by `host:`).
    static let agent = "agent"
    /// The `kind` of categories (a task without one adds nothing).
    static let category = "category"
    /// Most values a qualifier is resolved to; a needle matching more is tested row by row, as before.
    static let resolveLimit = 200

    private static func add(_ kind: String, _ value: String) -> String {
        "INSERT INTO timeline_values (kind, value, tasks) SELECT '\(kind)', \(value), 1 WHERE \(value) IS NOT NULL"
            + " ON CONFLICT (kind, value) DO UPDATE SET tasks = tasks + 1;"
    }

    private static func remove(_ kind: String, _ value: String) -> String {
        "UPDATE timeline_values SET tasks = tasks - 1 WHERE kind = '\(kind)' AND value = \(value);"
            + " DELETE FROM timeline_values WHERE kind = '\(kind)' AND value = \(value) AND tasks <= 0;"
    }

    static let createSQL = """
        CREATE TABLE IF NOT EXISTS timeline_values (
            kind  TEXT NOT NULL,
            value TEXT NOT NULL,
            tasks INTEGER NOT NULL,
            PRIMARY KEY (kind, value)
        ) WITHOUT ROWID;
        DELETE FROM timeline_values;
        INSERT INTO timeline_values (kind, value, tasks) SELECT '\(agent)', agent_id, count(*) FROM timeline GROUP BY agent_id;
        INSERT INTO timeline_values (kind, value, tasks)
            SELECT '\(category)', category, count(*) FROM timeline WHERE category IS NOT NULL GROUP BY category;
        CREATE TRIGGER IF NOT EXISTS timeline_values_insert AFTER INSERT ON timeline BEGIN
            \(add(agent, "new.agent_id"))
            \(add(category, "new.category"))
        END;
        CREATE TRIGGER IF NOT EXISTS timeline_values_delete AFTER DELETE ON timeline BEGIN
            \(remove(agent, "old.agent_id"))
            \(remove(category, "old.category"))
        END;
        CREATE TRIGGER IF NOT EXISTS timeline_values_agent AFTER UPDATE OF agent_id ON timeline
            WHEN old.agent_id IS NOT new.agent_id BEGIN
            \(remove(agent, "old.agent_id"))
            \(add(agent, "new.agent_id"))
        END;
        CREATE TRIGGER IF NOT EXISTS timeline_values_category AFTER UPDATE OF category ON timeline
            WHEN old.category IS NOT new.category BEGIN
            \(remove(category, "old.category"))
            \(add(category, "new.category"))
        END;
        CREATE INDEX IF NOT EXISTS timeline_agent ON timeline (agent_id, status, category);
        CREATE INDEX IF NOT EXISTS timeline_category ON timeline (category, status);
        """
}
