import SQSClient
import TimelineStore

/// A failure the poller retries: a request, or committing a received batch to the store.
public enum PollerFault: Sendable, Equatable {
    /// A retryable SQS failure (throttling, 5xx, network, timeout).
    case request(SQSError)
    /// The store could not commit a batch: the batch is held (its visibility extended) and retried, and
    /// no worker receives more until it commits.
    case store(StoreFailure)
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
