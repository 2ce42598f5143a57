import StrictJSON

/// Writes event payloads as compact JSON (for `timeline publish` and tests). Feed the result to
/// `EventParser.parse` to validate it with the same rules as ingest.
public enum EventEncoder {
    /// A payload with keys in the order of the payload table; nil optional fields are left out.
    /// `status` and `timestamp` are taken as given so that bad values get the parser's usual reasons.
    public static func json(
        id: String, agentID: String, taskID: String, title: String, status: String, timestamp: String,
        body: String? = nil, category: String? = nil, progress: Double? = nil, isStep: Bool = false
    ) -> String {
        var fields: [(String, String)] = [
            ("id", quoted(id)), ("agent_id", quoted(agentID)), ("task_id", quoted(taskID)), ("title", quoted(title)),
        ]
        if let body { fields.append(("body", quoted(body))) }
        fields.append(("status", quoted(status)))
        if let category { fields.append(("category", quoted(category))) }
        fields.append(("timestamp", quoted(timestamp)))
        if let progress { fields.append(("progress", number(progress))) }
        if isStep { fields.append(("step", "true")) }
        return "{" + fields.map { "\(quoted($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// The payload of an accepted event's known fields (unknown fields live only in `rawJSON`).
    public static func json(_ event: Event) -> String {
        json(id: event.id, agentID: event.agentID, taskID: event.taskID, title: event.title,
             status: event.status.rawValue, timestamp: TimeFormat.iso8601(micros: event.timestampMicros),
             body: event.body.isEmpty ? nil : event.body, category: event.category, progress: event.progress,
             isStep: event.isStep)
    }

    /// A JSON string literal (`JSONWriter`'s escapes).
    public static func quoted(_ s: String) -> String { JSONWriter.quoted(s) }

    /// A JSON number: integers without a fraction (`42`), others in Swift's shortest form (`42.5`).
    /// Non-finite values become strings so the parser rejects them with its usual reason.
    static func number(_ value: Double) -> String {
        JSONWriter.number(value) ?? quoted("\(value)")
    }
}
