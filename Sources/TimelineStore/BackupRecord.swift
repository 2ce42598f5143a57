import TimelineCore

/// One thing the store knows, as a backup carries it (`timeline export --format backup`).
///
/// Store-local numbers (arrival sequences, timeline row ids) are not carried: records follow arrival order
/// and refer to events by id, so a backup restores into an empty database or merges into an existing one.
public enum BackupRecord: Sendable, Equatable {
    case event(StoredEvent)
    case rejected(StoredRejection)
    /// A marked task and when it was marked.
    case mark(taskID: String, markedMicros: Int64)
    /// The task of this event is read up to this event (the user's read mark and the mark-all-read
    /// watermark, folded into one per task).
    case read(eventID: String)
    case reply(StoredReply)

    /// The record's kind as a backup line names it (`"record"`).
    public var kind: String {
        switch self {
        case .event: "event"
        case .rejected: "rejected"
        case .mark: "mark"
        case .read: "read"
        case .reply: "reply"
        }
    }
}

/// An accepted event as stored: the payload exactly as received and how it arrived.
public struct StoredEvent: Sendable, Equatable {
    /// The payload exactly as received.
    public var rawJSON: String
    /// The time it is ordered by: its claimed `timestamp`, or its arrival when the claim ran too far ahead
    /// (`ClaimedTime`), microseconds since the epoch.
    public var orderingMicros: Int64
    /// The SQS message id it came in (nil for imports).
    public var messageID: String?
    /// When this viewer stored it, microseconds since the epoch.
    public var receivedMicros: Int64
    /// SQS `SentTimestamp` and `ApproximateReceiveCount`, when it came from a queue.
    public var delivery: QueueDelivery?

    public init(rawJSON: String, orderingMicros: Int64, messageID: String?, receivedMicros: Int64, delivery: QueueDelivery?) {
        self.rawJSON = rawJSON
        self.orderingMicros = orderingMicros
        self.messageID = messageID
        self.receivedMicros = receivedMicros
        self.delivery = delivery
    }
}

/// A message that failed validation, as stored: its exact bytes and why.
public struct StoredRejection: Sendable, Equatable {
    public var rawBytes: [UInt8]
    public var messageID: String?
    public var reason: String
    public var receivedMicros: Int64

    public init(rawBytes: [UInt8], messageID: String?, reason: String, receivedMicros: Int64) {
        self.rawBytes = rawBytes
        self.messageID = messageID
        self.reason = reason
        self.receivedMicros = receivedMicros
    }
}

/// A reply as stored: every column of the `replies` table but its sequence, nulls kept as nulls.
public struct StoredReply: Sendable, Equatable {
    public var id: String
    public var inReplyTo: String
    public var taskID: String
    public var agentID: String
    /// The chosen action's id (nil for a text answer).
    public var action: String?
    /// The text answer (nil for an action).
    public var text: String?
    public var sender: String
    public var timestampMicros: Int64
    public var label: String?
    /// `queue` or `webhook`.
    public var destinationKind: String
    public var destination: String
    /// `sending`, `sent` or `failed`.
    public var state: String
    public var detail: String?
    public var updatedMicros: Int64

    public init(id: String, inReplyTo: String, taskID: String, agentID: String, action: String?, text: String?,
                sender: String, timestampMicros: Int64, label: String?, destinationKind: String, destination: String,
                state: String, detail: String?, updatedMicros: Int64) {
        self.id = id
        self.inReplyTo = inReplyTo
        self.taskID = taskID
        self.agentID = agentID
        self.action = action
        self.text = text
        self.sender = sender
        self.timestampMicros = timestampMicros
        self.label = label
        self.destinationKind = destinationKind
        self.destination = destination
        self.state = state
        self.detail = detail
        self.updatedMicros = updatedMicros
    }
}

/// What a restore added; records already in the database add nothing.
public struct RestoreCounts: Sendable, Equatable {
    public var events = 0
    /// Events whose id was stored already.
    public var duplicateEvents = 0
    public var rejected = 0
    public var marks = 0
    public var readMarks = 0
    public var replies = 0
    public init() {}

    public static func + (a: RestoreCounts, b: RestoreCounts) -> RestoreCounts {
        var sum = a
        sum.events += b.events
        sum.duplicateEvents += b.duplicateEvents
        sum.rejected += b.rejected
        sum.marks += b.marks
        sum.readMarks += b.readMarks
        sum.replies += b.replies
        return sum
    }
}
