import Foundation

/// Why a message was refused, in one human-readable sentence.
public struct EventRejection: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// Strict parsing and validation of the event payload (DESIGN.md, "Event payload").
public enum EventParser {
    /// Parses one message body. Never throws or traps: bad input becomes an `EventRejection`.
    public static func parse(_ bytes: [UInt8]) -> Result<Event, EventRejection> {
        // PROVISIONAL minimal implementation; the strict one replaces it.
        guard let text = String(validating: bytes, as: UTF8.self) else { return .failure(EventRejection("body is not valid UTF-8")) }
        guard let obj = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            return .failure(EventRejection("body is not a JSON object"))
        }
        func str(_ k: String) -> String? { obj[k] as? String }
        guard let id = str("id"), let agent = str("agent_id"), let task = str("task_id"), let title = str("title"),
              let st = str("status"), let status = Status(rawValue: st), let ts = str("timestamp")
        else { return .failure(EventRejection("missing required field")) }
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let g = ISO8601DateFormatter()
        guard let date = f.date(from: ts) ?? g.date(from: ts) else { return .failure(EventRejection("bad timestamp")) }
        return .success(Event(id: id, agentID: agent, taskID: task, title: title, body: str("body") ?? "",
                              status: status, category: str("category"),
                              timestampMicros: Int64(date.timeIntervalSince1970 * 1_000_000),
                              progress: obj["progress"] as? Double, rawJSON: text))
    }

    /// Convenience for a `String` body.
    public static func parse(_ text: String) -> Result<Event, EventRejection> { parse(Array(text.utf8)) }
}
