import Foundation
import StrictJSON
import TimelineCore

/// JSON lines for `--json` output (for jq): one object per row, event or rejected message.
enum EventJSONLine {
    /// An event's fields (plus its arrival `seq` and `received_at` when known); `extra` adds fields such
    /// as `event_count`.
    static func object(_ event: Event, seq: Int64? = nil, receivedMicros: Int64? = nil,
                       extra: [String: Any] = [:]) -> [String: Any] {
        var object: [String: Any] = [
            "id": event.id, "agent_id": event.agentID, "task_id": event.taskID, "title": event.title,
            "body": event.body, "status": event.status.rawValue, "timestamp": TimeFormat.iso8601(micros: event.timestampMicros),
        ]
        if let seq { object["seq"] = seq }
        if let receivedMicros { object["received_at"] = TimeFormat.iso8601(micros: receivedMicros) }
        object["category"] = event.category ?? NSNull()
        object["progress"] = event.progress ?? NSNull()
        if event.status == .needsInput || event.rawJSON.contains("\"actions\"") || event.rawJSON.contains("\"reply_to\"") {
            let interaction = event.interaction
            if !interaction.actions.isEmpty {
                object["actions"] = interaction.actions.map { action -> [String: Any] in
                    var item: [String: Any] = ["id": action.id, "label": action.label, "style": action.style.rawValue]
                    if let url = action.url { item["url"] = url }
                    return item
                }
            }
            if let replyTo = interaction.replyTo { object["reply_to"] = replyTo }
        }
        for (key, value) in extra { object[key] = value }
        return object
    }

    /// One line of compact JSON with sorted keys. Characters unsafe for a terminal that JSON leaves raw
    /// (DEL, C1 controls, bidi/format controls, …: `TerminalSafety`) are written as `\uXXXX` escapes:
    /// the same JSON value.
    static func line(_ object: [String: Any]) throws -> String {
        guard let bytes = JSONWriter.encode(object, escaping: TerminalSafety.isUnsafe) else {
            throw JSONLineError()
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A value `JSONWriter` cannot write (a programming error: every field here is a string, number or null).
    struct JSONLineError: Error, CustomStringConvertible {
        var description: String { "internal error: a --json value is not a JSON value" }
    }
}
