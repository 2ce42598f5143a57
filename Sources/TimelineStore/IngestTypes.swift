import TimelineCore

/// One message to store: a validated event, or a message that failed validation.
public enum IngestItem: Sendable, Equatable {
    /// A valid event and the SQS message id it came in (nil for `timeline import`).
    case event(Event, messageID: String?)
    /// A message that failed validation: its exact bytes (they need not be UTF-8) and why it failed.
    case rejected(rawBytes: [UInt8], messageID: String?, reason: String)

    /// A rejected message given as text.
    public static func rejected(rawBody: String, messageID: String?, reason: String) -> IngestItem {
        .rejected(rawBytes: Array(rawBody.utf8), messageID: messageID, reason: reason)
    }

    /// The SQS message id, if any.
    public var messageID: String? {
        switch self {
        case .event(_, let id), .rejected(_, let id, _): id
        }
    }
}

/// What `ingest` did with one item. Every outcome means the item is durably stored (or was already):
/// after the transaction commits, its message may be deleted from the queue.
public enum IngestOutcome: Sendable, Equatable, Hashable {
    /// A new task: the event created its timeline row.
    case inserted
    /// The event is newer than the task's row and became it.
    case replaced
    /// The event is older than the task's current row: kept in the history only.
    case keptOlder
    /// An event with the same id was already stored: nothing changed.
    case duplicate
    /// Stored as a rejected message (or it already was, under the same SQS message id).
    case rejected
}

/// Sizes of the store.
public struct StoreStats: Sendable, Equatable {
    public var events: Int
    public var tasks: Int
    public var rejected: Int
    /// Bytes of the database file plus its WAL.
    public var fileBytes: Int64
}
