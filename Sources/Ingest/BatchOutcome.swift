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
