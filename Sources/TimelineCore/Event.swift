import Foundation

/// One validated agent status event (see the payload table in DESIGN.md).
public struct Event: Sendable, Equatable, Hashable {
    public var id: String
    public var agentID: String
    public var taskID: String
    public var title: String
    /// Details; empty when the payload had none.
    public var body: String
    public var status: Status
    public var category: String?
    /// Event time normalised to UTC, in microseconds since the Unix epoch.
    public var timestampMicros: Int64
    /// Progress 0–100 when the payload carried one.
    public var progress: Double?
    /// A step of the task (`"step": true`): kept in the task's history, but it takes the task's row only
    /// while the task is working (`in_progress`), so a step never flips a waiting or finished task back.
    public var isStep: Bool
    /// The payload exactly as received (unknown fields survive here).
    public var rawJSON: String
    /// How the queue delivered it (not part of the payload; nil when not from a queue).
    public var delivery: QueueDelivery?

    public init(
        id: String, agentID: String, taskID: String, title: String, body: String = "",
        status: Status, category: String? = nil, timestampMicros: Int64, progress: Double? = nil,
        isStep: Bool = false, rawJSON: String, delivery: QueueDelivery? = nil
    ) {
        self.id = id
        self.agentID = agentID
        self.taskID = taskID
        self.title = title
        self.body = body
        self.status = status
        self.category = category
        self.timestampMicros = timestampMicros
        self.progress = progress
        self.isStep = isStep
        self.rawJSON = rawJSON
        self.delivery = delivery
    }

    /// The event time as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: Double(timestampMicros) / 1_000_000) }
}
