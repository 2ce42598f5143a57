/// Size limits of the event payload, in UTF-8 bytes (`schema/event.schema.json` states the same limits;
/// JSON Schema counts characters, so the byte limits here are the binding ones).
public enum EventLimits {
    /// The whole message: the most SQS carries (1 MiB, a queue's largest `MaximumMessageSize`).
    public static let messageBytes = 1_048_576
    /// `id`, `agent_id`, `task_id`.
    public static let idBytes = 256
    /// `title`.
    public static let titleBytes = 1_024
    /// `category`.
    public static let categoryBytes = 256
    /// `body`: as long as the message can carry (the message limit is the binding one).
    public static let bodyBytes = messageBytes
}
