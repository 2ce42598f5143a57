import Foundation
import StrictJSON
import TimelineCore

/// The backup format: JSON lines. The first line names the format and its version
/// (`{"format":"timeline-backup","version":1}`); every other line is one record, its kind in `"record"`:
///
/// - `event`: `raw` (the payload exactly as received, as a JSON string), `ts_us` (the time it is ordered by:
///   its claim, or its arrival when the claim ran ahead), `received_us`, and when known `message_id`,
///   `sent_us`, `receive_count`;
/// - `rejected`: `raw_base64` (the exact bytes), `reason`, `received_us`, `message_id` when known;
/// - `mark`: `task_id`, `marked_us`;
/// - `read`: `event_id` (its task is read up to that event);
/// - `reply`: the reply's columns (`id`, `in_reply_to`, `task_id`, `agent_id`, `action` or `text`, `sender`,
///   `ts_us`, `label`, `destination_kind`, `destination`, `state`, `detail`, `updated_us`).
///
/// Times are microseconds since the epoch. Absent members are nulls. Characters a terminal could act on are
/// written as `\uXXXX` escapes (the same JSON values), so a backup is safe to print.
public enum BackupLine {
    public static let formatName = "timeline-backup"
    public static let version = 1

    /// The first line.
    public static var header: String {
        line(["format": formatName, "version": version])
    }

    /// What a first line says: a backup of a version this build reads, a backup of another version, or not
    /// a backup (then the input is plain event lines). Only an object with exactly `format` and `version`
    /// is a header: an event cannot look like one (it needs `id`, `task_id`, …).
    public enum Header: Equatable, Sendable {
        case backup
        case unsupportedVersion(String)
        case notBackup
    }

    public static func header(of bytes: [UInt8]) -> Header {
        guard let object = JSONReader.object(from: bytes), Set(object.keys) == ["format", "version"],
              object["format"] as? String == formatName else { return .notBackup }
        guard let found = object["version"] as? Int, found == version else {
            return .unsupportedVersion(object["version"].map { "\($0)" } ?? "?")
        }
        return .backup
    }

    /// One record as a line (with its newline).
    public static func encode(_ record: BackupRecord) -> String {
        var object: [String: Any] = [:]
        switch record {
        case .event(let event):
            object = ["raw": event.rawJSON, "ts_us": event.orderingMicros, "received_us": event.receivedMicros]
            object["message_id"] = event.messageID
            object["sent_us"] = event.delivery?.sentMicros
            object["receive_count"] = event.delivery?.receiveCount
        case .rejected(let message):
            object = ["raw_base64": Data(message.rawBytes).base64EncodedString(),
                      "reason": message.reason, "received_us": message.receivedMicros]
            object["message_id"] = message.messageID
        case .mark(let taskID, let markedMicros):
            object = ["task_id": taskID, "marked_us": markedMicros]
        case .read(let eventID):
            object = ["event_id": eventID]
        case .reply(let reply):
            object = ["id": reply.id, "in_reply_to": reply.inReplyTo, "task_id": reply.taskID,
                      "agent_id": reply.agentID, "sender": reply.sender, "ts_us": reply.timestampMicros,
                      "destination_kind": reply.destinationKind, "destination": reply.destination,
                      "state": reply.state, "updated_us": reply.updatedMicros]
            object["action"] = reply.action
            object["text"] = reply.text
            object["label"] = reply.label
            object["detail"] = reply.detail
        }
        object["record"] = record.kind
        return line(object)
    }

    /// The record on one line (without its newline).
    public static func decode(_ bytes: [UInt8]) throws(BackupLineError) -> BackupRecord {
        guard let object = JSONReader.object(from: bytes) else { throw BackupLineError("not a JSON object") }
        let fields = Fields(object: object)
        switch try fields.string("record") {
        case "event":
            let sent = try fields.optionalInt("sent_us"), count = try fields.optionalInt("receive_count")
            return .event(StoredEvent(
                rawJSON: try fields.string("raw"), orderingMicros: try fields.int("ts_us"), messageID: try fields.optionalString("message_id"),
                receivedMicros: try fields.int("received_us"),
                delivery: sent == nil && count == nil ? nil : QueueDelivery(sentMicros: sent, receiveCount: count.map { Int($0) })))
        case "rejected":
            guard let bytes = Data(base64Encoded: try fields.string("raw_base64")) else {
                throw BackupLineError("\"raw_base64\" is not base64")
            }
            return .rejected(StoredRejection(rawBytes: Array(bytes), messageID: try fields.optionalString("message_id"),
                                             reason: try fields.string("reason"), receivedMicros: try fields.int("received_us")))
        case "mark":
            return .mark(taskID: try fields.string("task_id"), markedMicros: try fields.int("marked_us"))
        case "read":
            return .read(eventID: try fields.string("event_id"))
        case "reply":
            let action = try fields.optionalString("action"), text = try fields.optionalString("text")
            guard (action == nil) != (text == nil) else { throw BackupLineError("a reply has exactly one of \"action\" and \"text\"") }
            return .reply(StoredReply(
                id: try fields.string("id"), inReplyTo: try fields.string("in_reply_to"), taskID: try fields.string("task_id"),
                agentID: try fields.string("agent_id"), action: action, text: text, sender: try fields.string("sender"),
                timestampMicros: try fields.int("ts_us"), label: try fields.optionalString("label"),
                destinationKind: try fields.oneOf("destination_kind", ["queue", "webhook"]),
                destination: try fields.string("destination"), state: try fields.oneOf("state", ["sending", "sent", "failed"]),
                detail: try fields.optionalString("detail"), updatedMicros: try fields.int("updated_us")))
        case let other:
            throw BackupLineError("unknown record kind \(quoted(other))")
        }
    }

    /// A value in a reason: quoted, cut to 40 characters, escaped where a terminal could act on it.
    private static func quoted(_ value: String) -> String {
        JSONWriter.quoted(value.count > 40 ? String(value.prefix(40)) + "…" : value, escaping: TerminalSafety.isUnsafe)
    }

    private static func line(_ object: [String: Any]) -> String {
        // Every value is a string or an integer, which JSONWriter always writes.
        String(decoding: JSONWriter.encode(object, escaping: TerminalSafety.isUnsafe) ?? [], as: UTF8.self) + "\n"
    }

    /// Typed access to a record's members.
    private struct Fields {
        let object: [String: Any]

        func optionalString(_ key: String) throws(BackupLineError) -> String? {
            guard let value = object[key] else { return nil }
            guard let text = value as? String else { throw BackupLineError("\"\(key)\" is not a string") }
            return text
        }

        func string(_ key: String) throws(BackupLineError) -> String {
            guard let text = try optionalString(key) else { throw BackupLineError("\"\(key)\" is missing") }
            return text
        }

        func oneOf(_ key: String, _ allowed: [String]) throws(BackupLineError) -> String {
            let text = try string(key)
            guard allowed.contains(text) else { throw BackupLineError("\"\(key)\" is \(BackupLine.quoted(text))") }
            return text
        }

        func optionalInt(_ key: String) throws(BackupLineError) -> Int64? {
            guard let value = object[key] else { return nil }
            guard let number = value as? Int else { throw BackupLineError("\"\(key)\" is not an integer") }
            return Int64(number)
        }

        func int(_ key: String) throws(BackupLineError) -> Int64 {
            guard let number = try optionalInt(key) else { throw BackupLineError("\"\(key)\" is missing") }
            return number
        }
    }
}

/// A backup line that is not a record this build reads.
public struct BackupLineError: Error, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
