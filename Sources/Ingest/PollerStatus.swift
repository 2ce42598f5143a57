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
    }

    /// A one-line summary for test diagnostics.
    public var summary: String { "\(state); \(counts)" }
}

/// A failure the poller retries: a request, or committing a received batch to the store.
public enum PollerFault: Sendable, Equatable {
    /// A retryable SQS failure (throttling, 5xx, network, timeout).
    case request(SQSError)
    /// The store could not commit a batch: the batch is held (its visibility extended) and retried, and
    /// no worker receives more until it commits.
    case store(StoreFailure)
}

/// Why the poller stopped.
public enum StopReason: Sendable, Equatable {
    /// `stopWhenEmpty`: the queue reported no visible and no in-flight messages.
    case drained
    /// `requestStop()` without a more precise reason.
    case requested
    /// A signal or the user asked to stop.
    case interrupted
    /// AWS refused the credentials (missing, invalid, expired, or a skewed clock: see `SQSError.clockSkew`).
    case credentialsRefused(SQSError)
    /// The credentials are valid but not allowed to use the queue.
    case accessDenied(SQSError)
    /// The queue does not exist at this endpoint and region.
    case queueMissing(queueURL: String, SQSError)
    /// A request failed in a way retrying cannot fix.
    case requestFailed(queueURL: String, SQSError)
    /// The store failed for `after` seconds (0: it could not be opened at all).
    case storeFailed(StoreFailure, after: TimeInterval)
    /// No request succeeded for `after` seconds (`PollerConfiguration.giveUpAfter`); `lastFault` is the last cause.
    case gaveUp(after: TimeInterval, lastFault: PollerFault)

    /// The reason for a non-retryable SQS error.
    public init(_ error: SQSError, queueURL: String) {
        switch error.kind {
        case .auth where SQSError.accessDeniedCodes.contains(error.code): self = .accessDenied(error)
        case .auth: self = .credentialsRefused(error)
        case .queueMissing: self = .queueMissing(queueURL: queueURL, error)
        default: self = .requestFailed(queueURL: queueURL, error)
        }
    }
}

/// Why the store could not open or commit, classified (`StorageProblem`) with SQLite's own words.
public struct StoreFailure: Error, Sendable, Equatable {
    public var problem: StorageProblem
    /// The full explanation: SQLite's message, what it means, what to do.
    public var explanation: String

    public init(problem: StorageProblem, explanation: String) {
        self.problem = problem
        self.explanation = explanation
    }

    /// Any error from the store: an `SQLiteError` is classified, anything else is `.other`.
    public init(_ error: any Error) {
        if let sqlite = error as? SQLiteError {
            self.init(problem: sqlite.problem, explanation: sqlite.explanation)
        } else {
            self.init(problem: .other, explanation: "\(error)")
        }
    }
}

/// What happened to one received batch.
public enum BatchOutcome: Sendable, Equatable {
    /// Committed (and deleted unless peeking).
    case stored(BatchReport)
    /// Could not be committed: held and retried (see `PollerFault.store`). Reported on the first failure.
    case storeFailed(queueURL: String, messages: Int, failure: StoreFailure)
}

/// What happened to one stored batch (for `timeline poll -v`).
public struct BatchReport: Sendable, Equatable {
    public var queueURL: String
    public var received: Int
    public var stored: Int
    public var duplicates: Int
    public var rejected: Int
    public var deleted: Int
    /// Rejection reasons in this batch, one per rejected message.
    public var rejectReasons: [String]
    /// The highest `ApproximateReceiveCount` in the batch (1: nothing was redelivered).
    public var maxReceiveCount: Int = 1
}
