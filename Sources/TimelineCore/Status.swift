/// The six statuses an event may carry, in display order.
public enum Status: String, CaseIterable, Sendable, Codable, Hashable {
    case info
    case inProgress = "in_progress"
    case success
    case warning
    case error
    /// The agent is blocked until a human answers (its actions, or a text reply to `reply_to`).
    case needsInput = "needs_input"

    /// The payload spelling, e.g. `in_progress`.
    public var name: String { rawValue }
}
