/// Sort key of a timeline row: newest first by `(timestampMicros, seq)` descending.
public struct RowKey: Sendable, Hashable, Comparable {
    public var timestampMicros: Int64
    /// Arrival sequence of the event (assigned by the store, strictly increasing).
    public var seq: Int64

    public init(timestampMicros: Int64, seq: Int64) {
        self.timestampMicros = timestampMicros
        self.seq = seq
    }

    /// Older keys compare smaller.
    public static func < (a: RowKey, b: RowKey) -> Bool {
        (a.timestampMicros, a.seq) < (b.timestampMicros, b.seq)
    }
}

/// One row of the timeline: the winning (newest) event of a task.
public struct TimelineRow: Sendable, Equatable, Hashable {
    public var event: Event
    /// Arrival sequence of `event`.
    public var seq: Int64
    /// How many events the task has in its history.
    public var eventCount: Int
    /// Local receive time of `event`, microseconds since the epoch.
    public var receivedMicros: Int64
    /// True when the task's newest event arrived after the user last looked at the task.
    public var unread: Bool
    /// Timestamp of the task's first (oldest) event: when it started (nil when not loaded).
    public var firstMicros: Int64?
    /// For a running task: its newest progress reports, newest first (for the ETA).
    public var recentProgress: [ProgressPoint]

    public init(event: Event, seq: Int64, eventCount: Int, receivedMicros: Int64, unread: Bool = false,
                firstMicros: Int64? = nil, recentProgress: [ProgressPoint] = []) {
        self.event = event
        self.seq = seq
        self.eventCount = eventCount
        self.receivedMicros = receivedMicros
        self.unread = unread
        self.firstMicros = firstMicros
        self.recentProgress = recentProgress
    }

    public var key: RowKey { RowKey(timestampMicros: event.timestampMicros, seq: seq) }
    public var taskID: String { event.taskID }
}

/// A message that failed validation, kept with its reason (invariant 4: nothing is dropped).
public struct RejectedMessage: Sendable, Equatable {
    public var seq: Int64
    public var rawBody: String
    public var messageID: String?
    public var reason: String
    public var receivedMicros: Int64

    public init(seq: Int64, rawBody: String, messageID: String?, reason: String, receivedMicros: Int64) {
        self.seq = seq
        self.rawBody = rawBody
        self.messageID = messageID
        self.reason = reason
        self.receivedMicros = receivedMicros
    }
}
