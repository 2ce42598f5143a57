import SharedRules
import StrictJSON

/// Why a message was refused, in one human-readable sentence.
public struct EventRejection: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// Strict parsing and validation of the event payload (DESIGN.md, "Event payload";
/// `schema/event.schema.json`). `agent-tool/timeline_event.py` applies the same rules with the same reasons.
///
/// Checks, in order; the first failure is the reason:
/// 1. the message: not empty, at most `EventLimits.messageBytes`, valid UTF-8, valid JSON (strict RFC 8259),
///    a JSON object, no duplicate keys (at any depth);
/// 2. the fields, in the order id, agent_id, task_id, title, status, timestamp, body, category, progress,
///    step, actions, reply_to (`InteractionRules`):
///    present when required → right type → no NUL character → within its byte limit → not blank
///    (required fields) → a valid value (status, timestamp, progress).
/// Values are kept as sent (not trimmed); a blank `category` counts as none. Unknown fields stay in `rawJSON`.
public enum EventParser {
    /// The statuses as listed in reasons.
    static let statusList = Status.allCases.map(\.rawValue).joined(separator: ", ")

    /// Parses one message body. Never throws or traps: bad input becomes an `EventRejection`.
    public static func parse(_ bytes: [UInt8]) -> Result<Event, EventRejection> {
        switch checkedDocumentAndText(bytes) {
        case .failure(let rejection): return .failure(rejection)
        case .success((let members, let text)):
            do throws(EventRejection) {
                return .success(try buildEvent(members, rawJSON: text))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Rule 1 (the message): not empty, within the size limit, UTF-8, strict JSON, an object, no duplicate
    /// keys. Returns the top-level members. Shared with `Reply.parse`.
    static func checkedDocument(_ bytes: [UInt8]) -> Result<[(key: String, value: JSONMember)], EventRejection> {
        checkedDocumentAndText(bytes).map(\.members)
    }

    /// `checkedDocument`, with the message as text (checked as UTF-8 once).
    private static func checkedDocumentAndText(
        _ bytes: [UInt8]
    ) -> Result<(members: [(key: String, value: JSONMember)], text: String), EventRejection> {
        guard !bytes.isEmpty else { return .failure(EventRejection("message is empty")) }
        guard bytes.count <= EventLimits.messageBytes else {
            return .failure(EventRejection(
                "message is \(bytes.count) bytes, larger than the \(EventLimits.messageBytes)-byte limit"))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let offset = UTF8Check.firstInvalidOffset(bytes) ?? 0
            return .failure(EventRejection(
                "message is not valid UTF-8 (byte 0x\(ReasonText.hex2(bytes[offset])) at offset \(offset))"))
        }
        let read = bytes.withUnsafeBufferPointer { buffer -> Result<(JSONDocument, DuplicateKey?), JSONSyntaxError> in
            var reader = JSONReader(buffer)
            do throws(JSONSyntaxError) {
                let document = try reader.readDocument()
                return .success((document, reader.firstDuplicate))
            } catch {
                return .failure(error)
            }
        }
        switch read {
        case .failure(let error):
            return .failure(EventRejection("message is not valid JSON: \(error.text)"))
        case .success((.other(let value), _)):
            return .failure(EventRejection("message is not a JSON object, got \(value.kindDescription)"))
        case .success((.object, let duplicate?)):
            if let field = duplicate.insideField {
                return .failure(EventRejection(
                    "duplicate key \(ReasonText.quote(duplicate.key)) inside field \(ReasonText.quote(field))"))
            }
            return .failure(EventRejection("duplicate field \(ReasonText.quote(duplicate.key))"))
        case .success((.object(let members), nil)):
            return .success((members, text))
        }
    }

    /// Convenience for a `String` body.
    public static func parse(_ text: String) -> Result<Event, EventRejection> { parse(Array(text.utf8)) }

    /// The top-level members of an accepted payload as whole values (nil when it is not a JSON object).
    static func members(_ bytes: [UInt8]) -> [(key: String, value: JSONValueTree)]? {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            guard let tree = try? reader.readTree(), case .object(let members) = tree else { return nil }
            return members
        }
    }

    // MARK: - Fields

    private static func buildEvent(_ members: [(key: String, value: JSONMember)], rawJSON: String) throws(EventRejection) -> Event {
        func member(_ name: String) -> JSONMember? { members.first(where: { $0.key == name })?.value }

        func requiredString(_ name: String, limit: Int?) throws(EventRejection) -> String {
            guard let value = member(name) else { throw EventRejection("missing required field \"\(name)\"") }
            return try checkedString(name, value, limit: limit, allowBlank: false, orNull: false)!
        }

        let id = try requiredString("id", limit: EventLimits.idBytes)
        let agentID = try requiredString("agent_id", limit: EventLimits.idBytes)
        let taskID = try requiredString("task_id", limit: EventLimits.idBytes)
        let title = try requiredString("title", limit: EventLimits.titleBytes)

        let statusText = try requiredString("status", limit: nil)
        guard let status = Status(rawValue: statusText) else {
            throw EventRejection("status \(ReasonText.quote(statusText)) is not one of \(statusList)")
        }

        let timestampText = try requiredString("timestamp", limit: nil)
        let micros: Int64
        switch Timestamp.parse(timestampText) {
        case .success(let value): micros = value
        case .failure(let problem):
            throw EventRejection("field \"timestamp\" \(problem.phrase): \(ReasonText.quote(timestampText))")
        }

        var body = ""
        if let value = member("body") {
            body = try checkedString("body", value, limit: EventLimits.bodyBytes, allowBlank: true, orNull: false)!
        }
        var category: String?
        if let value = member("category") {
            category = try checkedString("category", value, limit: EventLimits.categoryBytes, allowBlank: true, orNull: true)
            if let text = category, ReasonText.isBlank(text) { category = nil }
        }
        var progress: Double?
        if let value = member("progress") {
            progress = try checkedProgress(value)
        }
        var isStep = false
        if let value = member("step") {
            guard case .bool(let flag) = value else {
                throw EventRejection("field \"step\" must be true or false, got \(value.kindDescription)")
            }
            isStep = flag
        }
        if member("actions") != nil || member("reply_to") != nil {
            guard let tree = EventParser.members(Array(rawJSON.utf8)) else { throw EventRejection("message is not valid JSON") }
            _ = try InteractionRules.interaction(tree)
        }
        return Event(id: id, agentID: agentID, taskID: taskID, title: title, body: body, status: status,
                     category: category, timestampMicros: micros, progress: progress, isStep: isStep, rawJSON: rawJSON)
    }

    /// Type → NUL → byte limit → blank. Returns nil only for an allowed `null`.
    private static func checkedString(
        _ name: String, _ value: JSONMember, limit: Int?, allowBlank: Bool, orNull: Bool
    ) throws(EventRejection) -> String? {
        let text: String
        switch value {
        case .string(let s): text = s
        case .null where orNull: return nil
        default:
            throw EventRejection("field \"\(name)\" must be a string\(orNull ? " or null" : ""), got \(value.kindDescription)")
        }
        if containsNUL(text) { throw EventRejection("field \"\(name)\" contains a NUL character") }
        if let limit, text.utf8.count > limit {
            throw EventRejection("field \"\(name)\" is \(text.utf8.count) bytes, longer than the \(limit)-byte limit")
        }
        if !allowBlank, ReasonText.isBlank(text) {
            throw EventRejection("field \"\(name)\" is empty or only whitespace")
        }
        return text
    }

    private static func containsNUL(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { $0.contains(0) }
    }

    private static func checkedProgress(_ value: JSONMember) throws(EventRejection) -> Double {
        let prefix = "field \"progress\" must be a number from 0 to 100, got "
        switch value {
        case .number(let source):
            guard let number = Double(source), number >= 0, number <= 100 else {
                throw EventRejection(prefix + ReasonText.cut(source))
            }
            return number
        case .string(let s): throw EventRejection(prefix + ReasonText.quote(s))
        case .bool(let b): throw EventRejection(prefix + (b ? "true" : "false"))
        default: throw EventRejection(prefix + value.kindDescription)
        }
    }
}
