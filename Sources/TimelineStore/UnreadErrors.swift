/// The number of unread error tasks, kept in `unread_errors` (schema 13; by `KeptCounts` since schema 14):
/// `timeline status`, the header and the terminal title read one row instead of walking every unread error
/// task. Every write that can change it keeps it exact in its own transaction: timeline rows (ingest,
/// restore, prune), read marks (mark read, restore, prune, `U`) and the `U` watermark (which recounts:
/// after `U` nothing is unread, so the walk is short).
enum UnreadErrors {
    /// The walk: unread error tasks counted over the timeline (the rule of `ReadState.unreadColumn`).
    static let countSQL = """
        SELECT count(*) FROM timeline t WHERE t.status = 'error' AND t.seq > \(ReadState.readAllSeq)
        AND NOT EXISTS (SELECT 1 FROM read_marks r WHERE r.task_row = t.row_id AND r.seq >= t.seq)
        """

    /// 1 when timeline row `row` (an alias) is an unread error with the read mark it has now.
    static func unreadNow(_ row: String) -> String {
        let mark = "COALESCE((SELECT r.seq FROM read_marks r WHERE r.task_row = \(row).row_id), 0)"
        return "(\(row).status = 'error' AND \(row).seq > MAX(\(mark), \(ReadState.readAllSeq)))"
    }

    /// How many of the timeline rows whose ids the JSON array `?1` lists are unread errors (a write counts
    /// the rows it changes before and after: `KeptCounts`). The CROSS JOIN looks each row up by its id: with
    /// `row_id IN (...)` SQLite walked every error row through the status index instead.
    static let unreadRowsSQL = """
        SELECT count(*) FROM (SELECT DISTINCT value AS row_id FROM json_each(?1)) AS listed
        CROSS JOIN timeline t ON t.row_id = listed.row_id WHERE \(unreadNow("t"))
        """

    static let createTableSQL = """
        CREATE TABLE IF NOT EXISTS unread_errors (
            id    INTEGER PRIMARY KEY CHECK (id = 1),
            tasks INTEGER NOT NULL
        );
        """

    /// Counts the table again.
    static let recountSQL = "INSERT OR REPLACE INTO unread_errors (id, tasks) VALUES (1, (\(countSQL)));"
}
