/// Storing what the user has looked at (unread marks); `TimelineStore` implements it.
public protocol ReadMarking: AnyObject {
    /// The task is read up to its event with arrival sequence `seq`.
    func markRead(taskID: String, seq: Int64) throws
    /// Every task is read.
    func markAllRead() throws
}

extension TimelineReading {
    /// The exact count, capped: for readers whose counts are cheap anyway.
    public func count(matching query: TimelineQuery, upTo limit: Int) throws -> Int {
        min(try count(matching: query), limit)
    }

    /// The exact count, capped: for readers whose counts are cheap anyway.
    public func countNewer(than key: RowKey, matching query: TimelineQuery, upTo limit: Int) throws -> Int {
        min(try countNewer(than: key, matching: query), max(0, limit))
    }

    /// The exact counts (valid lower bounds too): for readers whose counts are cheap anyway.
    public func statusCounts(matching query: TimelineQuery, upTo limit: Int) throws -> [Status: Int] {
        try statusCounts(matching: query)
    }
}

/// A reader whose queries can be stopped part-way: the runtime stops a search or a count that the next
/// keystroke made stale, instead of letting it hold a lane (and a core) until it ends.
public protocol CancellableReading: AnyObject {
    /// Runs `body`; its queries stop with `ReadCancelled` soon after `isCancelled()` turns true (it is asked
    /// from inside them, on the calling thread). Every query of this reader is affected while `body` runs,
    /// so one reader serves one such caller at a time (the runtime gives each lane its own reader).
    func cancellable<T>(when isCancelled: @escaping @Sendable () -> Bool, _ body: () throws -> T) throws -> T
}

/// A read stopped by `CancellableReading.cancellable` because its answer was no longer wanted.
public struct ReadCancelled: Error, Equatable, Sendable {
    public init() {}
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
    /// Reads every one of them: far down a long history, use the capped form.
    func countNewer(than key: RowKey, matching query: TimelineQuery) throws -> Int
    /// Number of matching rows strictly newer than `key`, counting at most `limit` (so `limit` means
    /// "`limit` or more"): a position that costs at most `limit` matching rows, however far down `key` is.
    func countNewer(than key: RowKey, matching query: TimelineQuery, upTo limit: Int) throws -> Int
    /// Timeline row counts per status for `query`.
    func statusCounts(matching query: TimelineQuery) throws -> [Status: Int]
    /// Number of rows matching `query`, counting at most `limit` (so `limit` means "`limit` or more").
    func count(matching query: TimelineQuery, upTo limit: Int) throws -> Int
    /// Counts per status among at most `limit` rows matching `query`: exact when they add up to less than
    /// `limit`, lower bounds otherwise.
    func statusCounts(matching query: TimelineQuery, upTo limit: Int) throws -> [Status: Int]
    /// The current timeline row of a task, if any.
    func row(taskID: String) throws -> TimelineRow?
    /// Every event of a task, newest first by `(timestamp, arrival)`, at most `limit`.
    func history(taskID: String, limit: Int) throws -> [Event]
    /// Changes whenever any connection (this process or another) commits a write.
    func changeToken() throws -> Int64
}
