import TimelineCore

/// A `TimelineReading` that forwards every read to another reader (a real store), for tests that wrap it:
/// `before` runs ahead of each read (to hold, delay, fail or count a given one) and `stopped` hears of the
/// reads stopped part-way as no longer wanted.
public final class ForwardingReader: TimelineReading, CancellableReading, @unchecked Sendable {
    /// The reads of `TimelineReading`, one case each.
    public enum Read: Sendable, Equatable {
        case rowsOlder, rowsNewer, count, countUpTo, countNewer, countNewerUpTo, statusCounts, statusCountsUpTo
        case row, history, changeToken
    }

    /// Ahead of each read: which one, its query (nil for reads by task, and the change token), and the check
    /// of the `cancellable` call it runs in (nil outside one). Blocks to hold the read, throws to fail it.
    public typealias Before = @Sendable (_ read: Read, _ query: TimelineQuery?, _ isCancelled: (@Sendable () -> Bool)?) throws -> Void

    public let base: TimelineReading & CancellableReading
    private let before: Before
    private let stopped: @Sendable (_ query: TimelineQuery?) -> Void
    /// Used by one thread at a time (a lane's reader), as the readers it stands for.
    private var isCancelled: (@Sendable () -> Bool)?
    private var lastQuery: TimelineQuery?

    /// `stopped`: a `cancellable` call ended with `ReadCancelled`; gets the query of the last read in it.
    public init(_ base: TimelineReading & CancellableReading, before: @escaping Before = { _, _, _ in },
                stopped: @escaping @Sendable (_ query: TimelineQuery?) -> Void = { _ in }) {
        self.base = base
        self.before = before
        self.stopped = stopped
    }

    private func ahead(_ read: Read, _ query: TimelineQuery?) throws {
        if query != nil { lastQuery = query }
        try before(read, query, isCancelled)
    }

    public func cancellable<T>(when isCancelled: @escaping @Sendable () -> Bool, _ body: () throws -> T) throws -> T {
        self.isCancelled = isCancelled
        lastQuery = nil
        defer { self.isCancelled = nil }
        do {
            return try base.cancellable(when: isCancelled, body)
        } catch let error as ReadCancelled {
            stopped(lastQuery)
            throw error
        }
    }

    public func rows(matching query: TimelineQuery, olderThan key: RowKey?, limit: Int) throws -> [TimelineRow] {
        try ahead(.rowsOlder, query)
        return try base.rows(matching: query, olderThan: key, limit: limit)
    }
    public func rows(matching query: TimelineQuery, newerThan key: RowKey, limit: Int) throws -> [TimelineRow] {
        try ahead(.rowsNewer, query)
        return try base.rows(matching: query, newerThan: key, limit: limit)
    }
    public func count(matching query: TimelineQuery) throws -> Int {
        try ahead(.count, query)
        return try base.count(matching: query)
    }
    public func count(matching query: TimelineQuery, upTo limit: Int) throws -> Int {
        try ahead(.countUpTo, query)
        return try base.count(matching: query, upTo: limit)
    }
    public func countNewer(than key: RowKey, matching query: TimelineQuery) throws -> Int {
        try ahead(.countNewer, query)
        return try base.countNewer(than: key, matching: query)
    }
    public func countNewer(than key: RowKey, matching query: TimelineQuery, upTo limit: Int) throws -> Int {
        try ahead(.countNewerUpTo, query)
        return try base.countNewer(than: key, matching: query, upTo: limit)
    }
    public func statusCounts(matching query: TimelineQuery) throws -> [Status: Int] {
        try ahead(.statusCounts, query)
        return try base.statusCounts(matching: query)
    }
    public func statusCounts(matching query: TimelineQuery, upTo limit: Int) throws -> [Status: Int] {
        try ahead(.statusCountsUpTo, query)
        return try base.statusCounts(matching: query, upTo: limit)
    }
    public func row(taskID: String) throws -> TimelineRow? {
        try ahead(.row, nil)
        return try base.row(taskID: taskID)
    }
    public func history(taskID: String, limit: Int) throws -> [Event] {
        try ahead(.history, nil)
        return try base.history(taskID: taskID, limit: limit)
    }
    public func changeToken() throws -> Int64 {
        try ahead(.changeToken, nil)
        return try base.changeToken()
    }
}
