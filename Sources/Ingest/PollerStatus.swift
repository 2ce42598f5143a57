import Foundation
import SQSClient
import TimelineStore

/// What the poller is doing, as a value that can be read without blocking.
public struct PollerStatus: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        /// Started; no request has succeeded yet.
        case connecting
        /// The last request succeeded; long polls are in flight.
        case receiving
        /// The last attempt failed (a request, or committing a batch); the next try is at `until`.
        case backingOff(until: Date, fault: PollerFault)
        /// Polling ended, for `reason`.
        case stopped(StopReason)
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
    /// Receive workers running: the configured concurrency, more while receives come back full.
    public var receiveWorkers = 0
    /// Time of the last successful ReceiveMessage answer (empty or not).
    public var lastReceive: Date?
    /// Time the last non-empty batch was stored.
    public var lastStored: Date?

    public init() {}

    /// True once polling has ended.
    public var isStopped: Bool { stopReason != nil }

    /// Why polling ended; nil while it runs.
    public var stopReason: StopReason? {
        if case .stopped(let reason) = state { return reason }
        return nil
    }

    /// The counters on one line (the state is put into words by the command that shows it).
    public var counts: String {
        "received \(received), stored \(stored), duplicates \(duplicates), rejected \(rejected), deleted \(deleted)"
            + (receivedManyTimes > 0 ? "; ⚠ \(receivedManyTimes) redelivered (3+ receives: see timeline doctor)" : "")
    }

    /// A one-line summary for test diagnostics.
    public var summary: String { "\(state); \(counts)" }
}
