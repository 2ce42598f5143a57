/// The number of unread error tasks, kept in `unread_errors` by triggers (schema 13): `timeline status`, the
/// header and the terminal title read one row instead of walking every unread error task. Every write that
/// can change it keeps it exact in its own transaction: timeline rows (ingest, restore, prune), read marks
/// (mark read, restore, prune, `U`) and the `U` watermark (which recounts: after `U` nothing is unread, so
/// the walk is short). Creating it again recounts (a file whose version was set back migrates again). A
/// large ingest batch applies what these triggers would once, with them off (`KeptCountChanges`).
enum UnreadErrors {
    /// The walk: unread error tasks counted over the timeline (the rule of `ReadState.unreadColumn`).
    static let countSQL = """
        SELECT count(*) FROM timeline t WHERE t.status = 'error' AND t.seq > \(ReadState.readAllSeq)
        AND NOT EXISTS (SELECT 1 FROM read_marks r WHERE r.task_row = t.row_id AND r.seq >= t.seq)
        """

    /// 1 when timeline row `row` (an alias or `new`/`old`) is an unread error given read mark `mark`.
    private static func unread(_ row: String, mark: String) -> String {
        "(\(row).status = 'error' AND \(row).seq > MAX(\(mark), \(ReadState.readAllSeq)))"
    }

    /// 1 when timeline row `row` is an unread error with the read mark it has now.
    private static func unreadNow(_ row: String) -> String {
        unread(row, mark: "COALESCE((SELECT r.seq FROM read_marks r WHERE r.task_row = \(row).row_id), 0)")
    }

    /// How a change of one task's read mark from `before` to `after` changes the count (`task`: its row id).
    private static func markDelta(task: String, before: String, after: String) -> String {
        "COALESCE((SELECT \(unread("t", mark: after)) - \(unread("t", mark: before)) FROM timeline t WHERE t.row_id = \(task)), 0)"
    }

    /// How many of the timeline rows whose ids the JSON array `?1` lists are unread errors (a batch that
    /// writes its rows with the triggers off counts its rows before and after: `KeptCountChanges`).
    static let unreadRowsSQL = "SELECT count(*) FROM timeline t WHERE t.row_id IN (SELECT value FROM json_each(?1)) AND "
        + unreadNow("t")

    static let createSQL = """
        CREATE TABLE IF NOT EXISTS unread_errors (
            id    INTEGER PRIMARY KEY CHECK (id = 1),
            tasks INTEGER NOT NULL
        );
        INSERT OR REPLACE INTO unread_errors (id, tasks) VALUES (1, (\(countSQL)));
        CREATE TRIGGER IF NOT EXISTS unread_errors_task_insert AFTER INSERT ON timeline WHEN new.status = 'error' BEGIN
            UPDATE unread_errors SET tasks = tasks + \(unreadNow("new"));
        END;
        CREATE TRIGGER IF NOT EXISTS unread_errors_task_delete AFTER DELETE ON timeline WHEN old.status = 'error' BEGIN
            UPDATE unread_errors SET tasks = tasks - \(unreadNow("old"));
        END;
        CREATE TRIGGER IF NOT EXISTS unread_errors_task_update AFTER UPDATE OF status, seq ON timeline
            WHEN old.status = 'error' OR new.status = 'error' BEGIN
            UPDATE unread_errors SET tasks = tasks - \(unreadNow("old")) + \(unreadNow("new"));
        END;
        CREATE TRIGGER IF NOT EXISTS unread_errors_mark_insert AFTER INSERT ON read_marks BEGIN
            UPDATE unread_errors SET tasks = tasks + \(markDelta(task: "new.task_row", before: "0", after: "new.seq"));
        END;
        CREATE TRIGGER IF NOT EXISTS unread_errors_mark_update AFTER UPDATE ON read_marks BEGIN
            UPDATE unread_errors SET tasks = tasks + \(markDelta(task: "old.task_row", before: "old.seq", after: "0"))
                + \(markDelta(task: "new.task_row", before: "0", after: "new.seq"));
        END;
        CREATE TRIGGER IF NOT EXISTS unread_errors_mark_delete AFTER DELETE ON read_marks BEGIN
            UPDATE unread_errors SET tasks = tasks + \(markDelta(task: "old.task_row", before: "old.seq", after: "0"));
        END;
        CREATE TRIGGER IF NOT EXISTS unread_errors_watermark_insert AFTER INSERT ON meta WHEN new.key = 'read_all_seq' BEGIN
            UPDATE unread_errors SET tasks = (\(countSQL));
        END;
        CREATE TRIGGER IF NOT EXISTS unread_errors_watermark_update AFTER UPDATE ON meta
            WHEN new.key = 'read_all_seq' OR old.key = 'read_all_seq' BEGIN
            UPDATE unread_errors SET tasks = (\(countSQL));
        END;
        CREATE TRIGGER IF NOT EXISTS unread_errors_watermark_delete AFTER DELETE ON meta WHEN old.key = 'read_all_seq' BEGIN
            UPDATE unread_errors SET tasks = (\(countSQL));
        END;
        """
}
