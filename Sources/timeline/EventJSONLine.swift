import Foundation
import TimelineCore

/// JSON lines for `--json` output (for jq): one object per row, event or rejected message.
enum EventJSONLine {
    /// An event's fields (plus its arrival `seq` and `received_at` when known); `extra` adds fields such
    /// as `event_count`.
    static func object(_ event: Event, seq: Int64? = nil, receivedMicros: Int64? = nil,
                       extra: [String: Any] = [:]) -> [String: Any] {
        var object: [String: Any] = [
            "id": event.id, "agent_id": event.agentID, "task_id": event.taskID, "title": event.title,
            "body": event.body, "status": event.status.rawValue, "timestamp": isoTimestamp(event.timestampMicros),
        ]
        if let seq { object["seq"] = seq }
        if let receivedMicros { object["received_at"] = isoTimestamp(receivedMicros) }
        object["category"] = event.category ?? NSNull()
        object["progress"] = event.progress ?? NSNull()
        for (key, value) in extra { object[key] = value }
        return object
    }

    /// One line of compact JSON with sorted keys. Characters a terminal could act on that JSON leaves raw
    /// (DEL, C1 controls, bidi/format controls) are written as `\uXXXX` escapes: the same JSON value.
    static func line(_ object: [String: Any]) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return escapingTerminalControls(String(decoding: data, as: UTF8.self))
    }

    /// JSON text with DEL, C1 controls and bidi/format controls (which JSON may leave raw) written as
    /// `\uXXXX` escapes: the same JSON value, safe on a terminal.
    static func escapingTerminalControls(_ json: String) -> String {
        var out = ""
        for scalar in json.unicodeScalars {
            switch scalar.value {
            case 0x7F...0x9F, 0x061C, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2069, 0xFEFF, 0xFFF9...0xFFFB:
                out += String(format: "\\u%04X", scalar.value)
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// RFC 3339 UTC with microseconds, e.g. `2026-11-22T03:12:05.123456Z`.
    static func isoTimestamp(_ micros: Int64) -> String {
        let seconds = micros >= 0 ? micros / 1_000_000 : (micros - 999_999) / 1_000_000
        let fraction = micros - seconds * 1_000_000
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                      Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), Int(fraction))
    }
}

/// Local wall-clock time for tables: `2026-11-22 03:12:05`.
func localTime(_ micros: Int64) -> String {
    var time = time_t(micros / 1_000_000)
    var parts = tm()
    localtime_r(&time, &parts)
    return String(format: "%04d-%02d-%02d %02d:%02d:%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                  Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
}
