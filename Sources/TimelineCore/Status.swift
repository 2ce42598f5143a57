/// The five statuses an event may carry, in display order.
public enum Status: String, CaseIterable, Sendable, Codable, Hashable {
    case info
    case inProgress = "in_progress"
    case success
    case warning
    case error

    /// The payload spelling, e.g. `in_progress`.
    public var name: String { rawValue }
}
