/// Storing what the user has looked at (issue 14's unread marks); `TimelineStore` implements it.
public protocol ReadMarking: AnyObject {
    /// The task is read up to its event with arrival sequence `seq`.
    func markRead(taskID: String, seq: Int64) throws
    /// Every task is read.
    func markAllRead() throws
}

/// Read access to a timeline, newest first. `TimelineStore` implements it; the UI depends only on this.
///
/// All windows are keyset windows (never OFFSET) so their cost does not grow with history size.
public protocol TimelineReading: AnyObject {
    /// Up to `limit` rows strictly older than `key` (from the newest when `key` is nil), newest first.
    func rows(matching query: TimelineQuery, olderThan key: RowKey?, limit: Int) throws -> [TimelineRow]
    /// Up to `limit` rows strictly newer than `key`, the ones closest to `key`, returned newest first.
    func rows(matching query: TimelineQuery, newerThan key: RowKey, limit: Int) throws -> [TimelineRow]
    /// Number of rows matching `query`.
    func count(matching query: TimelineQuery) throws -> Int
    /// Number of matching rows strictly newer than `key` (the 0-based position of a row with that key).
    func countNewer(than key: RowKey, matching query: TimelineQuery) throws -> Int
    /// Timeline row counts per status for `query`.
    func statusCounts(matching query: TimelineQuery) throws -> [Status: Int]
    /// The current timeline row of a task, if any.
    func row(taskID: String) throws -> TimelineRow?
    /// Every event of a task, newest first by `(timestamp, arrival)`, at most `limit`.
    func history(taskID: String, limit: Int) throws -> [Event]
    /// Changes whenever any connection (this process or another) commits a write.
    func changeToken() throws -> Int64
}
