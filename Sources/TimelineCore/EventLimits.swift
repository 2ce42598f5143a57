/// Size limits of the event payload, in UTF-8 bytes (`schema/event.schema.json` states the same limits;
/// JSON Schema counts characters, so the byte limits here are the binding ones).
public enum EventLimits {
    /// The whole message: SQS's own maximum (256 KiB).
    public static let messageBytes = 262_144
    /// `id`, `agent_id`, `task_id`.
    public static let idBytes = 256
    /// `title`.
    public static let titleBytes = 1_024
    /// `category`.
    public static let categoryBytes = 256
    /// `body` (64 KiB).
    public static let bodyBytes = 65_536
}
