import TimelineCore

/// `--notify=off|errors|all`: which task transitions raise a notification.
public enum NotifyLevel: String, CaseIterable, Sendable {
    case off, errors, all
}

/// The one place that says which statuses need a human. Adding a status is one line in `urgency(_:)`
/// (`case .needsInput: .urgent` once `needs_input` lands; the compiler asks for it).
public struct NotifyPolicy: Sendable, Equatable {
    public var level: NotifyLevel
    public init(level: NotifyLevel) { self.level = level }

    /// How urgent entering `status` is: `.urgent` fires at `errors`, `.optional` only at `all`.
    public enum Urgency: Sendable { case urgent, optional, none }

    public static func urgency(_ status: Status) -> Urgency {
        switch status {
        case .error, .needsInput: .urgent
        case .warning, .success: .optional
        case .info, .inProgress: .none
        }
    }

    /// True when a task entering `status` notifies at this level.
    public func notifies(_ status: Status) -> Bool {
        switch (level, Self.urgency(status)) {
        case (.off, _), (_, .none): false
        case (.errors, .optional): false
        default: true
        }
    }

    /// Statuses counted as "need you" in summaries and the fleet line (`needs_input`, by its payload
    /// spelling, so this holds before and after the status lands in `Status`).
    public static func isWaiting(_ status: Status) -> Bool { status.rawValue == "needs_input" }
}
