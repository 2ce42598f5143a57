import Foundation

/// What the poller is doing, as a value that can be read without blocking.
public struct PollerStatus: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        /// Started; no answer from the queue yet.
        case connecting
        /// Long polls are in flight and the last call succeeded.
        case receiving
        /// The last call failed with a retryable error; the next try is at `until`.
        case backingOff(until: Date, reason: String)
        /// Polling ended: on request, because the queue is drained, or for a reason that retrying
        /// cannot fix (auth, missing queue). `reason` says which, and how to fix it.
        case stopped(reason: String)
    }

    public var state: State = .connecting
    /// Messages received from SQS (redeliveries count again).
    public var received = 0
    /// Events stored as new rows, replacements or history (not duplicates).
    public var stored = 0
    /// Events already stored (redelivered or sent twice).
    public var duplicates = 0
    /// Messages kept as rejected, with their reason.
    public var rejected = 0
    /// Messages deleted from the queue after their batch committed.
    public var deleted = 0
    /// Delete attempts that failed (the message stays in the queue and comes back: no loss).
    public var deleteFailures = 0
    /// Messages received `QueueDelivery.flaggedReceiveCount` (3) times or more: something keeps failing
    /// to store or delete them, and a redrive policy may move them to the dead-letter queue.
    public var receivedManyTimes = 0
    /// Time of the last successful ReceiveMessage answer (empty or not).
    public var lastReceive: Date?
    /// Time the last non-empty batch was stored.
    public var lastStored: Date?

    public init() {}

    /// True once polling has ended.
    public var isStopped: Bool {
        if case .stopped = state { return true }
        return false
    }

    /// A one-line summary for logs and the status bar.
    public var summary: String {
        let state: String
        switch self.state {
        case .connecting: state = "connecting"
        case .receiving: state = "receiving"
        case .backingOff(let until, let reason):
            let seconds = max(0, until.timeIntervalSinceNow)
            state = String(format: "backing off %.1fs (%@)", seconds, reason)
        case .stopped(let reason): state = "stopped: \(reason)"
        }
        return "\(state); received \(received), stored \(stored), duplicates \(duplicates), "
            + "rejected \(rejected), deleted \(deleted)"
            + (receivedManyTimes > 0 ? "; ⚠ \(receivedManyTimes) redelivered (3+ receives: see timeline doctor)" : "")
    }
}

/// What happened to one received batch (for `timeline poll -v`).
public struct BatchReport: Sendable, Equatable {
    public var queueURL: String
    public var received: Int
    public var stored: Int
    public var duplicates: Int
    public var rejected: Int
    public var deleted: Int
    /// Rejection reasons in this batch, one per rejected message.
    public var rejectReasons: [String]
}
