/// What the status bar shows about the background poller: a plain value Ingest makes from its supervisor's
/// status (`PollerSupervisor.Status.view`) and TimelineUI draws, so neither depends on the other.
public struct PollerStatusView: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        /// No request has succeeded yet.
        case connecting
        /// Connected, waiting on a long poll.
        case connected
        /// Messages are arriving.
        case receiving
        /// Retrying after an error at `untilMicros`.
        case backingOff(untilMicros: Int64, problem: PollerProblem)
        /// Gave up (auth error, missing queue, …).
        case stopped(PollerProblem)
        /// No poller in this process (`--no-poll`).
        case disabled
    }

    public var state: State
    /// Queue name (or URL) shown in the header.
    public var queueName: String?
    /// Queue URL for the empty-state publish command.
    public var queueURL: String?
    /// Local time of the last successful receive, microseconds since the epoch.
    public var lastReceiveMicros: Int64?
    /// Events stored and messages rejected since start.
    public var storedCount: Int
    public var rejectedCount: Int
    /// Messages received 3 times or more since start (flagged in the status bar).
    public var receivedManyTimes: Int

    public init(state: State, queueName: String? = nil, queueURL: String? = nil, lastReceiveMicros: Int64? = nil,
                storedCount: Int = 0, rejectedCount: Int = 0, receivedManyTimes: Int = 0) {
        self.state = state
        self.queueName = queueName
        self.queueURL = queueURL
        self.lastReceiveMicros = lastReceiveMicros
        self.storedCount = storedCount
        self.rejectedCount = rejectedCount
        self.receivedManyTimes = receivedManyTimes
    }

    public static let disabled = PollerStatusView(state: .disabled)
}

/// Why the poller retries or stopped, as the poller put it: a few words for the status bar and the empty
/// state, and the whole explanation with its fix for the `!` overlay. Shown as given, never cut apart.
public struct PollerProblem: Sendable, Equatable {
    public var summary: String
    public var explanation: String

    public init(summary: String, explanation: String) {
        self.summary = summary
        self.explanation = explanation
    }
}
