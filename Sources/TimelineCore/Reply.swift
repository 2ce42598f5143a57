import Foundation
import SharedRules
import StrictJSON

/// A human's answer to an event (`schema/reply.schema.json`): an action id or a line of text, sent to the
/// event's `reply_to` queue or an action's webhook. `agent-tool/agent_reply.py` reads it with the same rules
/// and reasons (shared examples: `schema/examples/replies`).
public struct Reply: Sendable, Equatable {
    /// What was answered.
    public enum Answer: Sendable, Equatable {
        case action(String)
        case text(String)
    }

    /// A UUID: the idempotency key (a resend keeps it).
    public var id: String
    /// The event answered (for a message from the agents view: the agent's latest event).
    public var inReplyTo: String
    public var taskID: String
    public var agentID: String
    public var answer: Answer
    /// Who answered: `user@host` by default.
    public var from: String
    public var timestampMicros: Int64

    public static let maxTextBytes = 4_096
    static let maxIDBytes = EventLimits.idBytes

    public init(id: String = UUID().uuidString.lowercased(), inReplyTo: String, taskID: String, agentID: String,
                answer: Answer, from: String, timestampMicros: Int64) {
        self.id = id
        self.inReplyTo = inReplyTo
        self.taskID = taskID
        self.agentID = agentID
        self.answer = answer
        self.from = from
        self.timestampMicros = timestampMicros
    }

    /// The reply as compact JSON, keys in schema order.
    public var json: String {
        var fields: [(String, String)] = [
            ("type", "reply"), ("id", id), ("in_reply_to", inReplyTo), ("task_id", taskID), ("agent_id", agentID),
        ]
        switch answer {
        case .action(let action): fields.append(("action", action))
        case .text(let text): fields.append(("text", text))
        }
        fields.append(("from", from))
        fields.append(("timestamp", TimeFormat.iso8601(micros: timestampMicros)))
        return "{" + fields.map { "\(JSONWriter.quoted($0.0)):\(JSONWriter.quoted($0.1))" }.joined(separator: ",") + "}"
    }

    /// The default sender: `user@host` from the environment and the short host name (`gethostname`, no DNS).
    public static func defaultSender(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let user = environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["LOGNAME"] ?? "user"
        var buffer = [CChar](repeating: 0, count: 256)
        let name = gethostname(&buffer, buffer.count - 1) == 0
            ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        let host = name.split(separator: ".").first.map(String.init) ?? ""
        return "\(user)@\(host.isEmpty ? "localhost" : host)"
    }

    /// Checks a text reply before it is stored or sent: not blank, no NUL, at most `maxTextBytes`.
    public static func textProblem(_ text: String) -> String? {
        if ReasonText.isBlank(text) { return "the reply is empty" }
        if text.unicodeScalars.contains(where: { $0.value == 0 }) { return "the reply contains a NUL character" }
        if text.utf8.count > maxTextBytes {
            return "the reply is \(text.utf8.count) bytes, longer than the \(maxTextBytes)-byte limit"
        }
        return nil
    }

    /// Reads a reply document with the rules of `schema/reply.schema.json`; the reason names the first problem.
    public static func parse(_ text: String) -> Result<Reply, EventRejection> {
        let bytes = Array(text.utf8)
        let valid = EventParser.checkedDocument(bytes)
        if case .failure(let rejection) = valid { return .failure(rejection) }
        guard let members = EventParser.members(bytes) else { return .failure(EventRejection("message is not a JSON object")) }
        func string(_ name: String, required: Bool = true, limit: Int? = maxIDBytes) throws(EventRejection) -> String? {
            guard let value = members.first(where: { $0.key == name })?.value else {
                if required { throw EventRejection("missing required field \"\(name)\"") }
                return nil
            }
            guard case .string(let s) = value else {
                throw EventRejection("field \"\(name)\" must be a string, got \(value.kindDescription)")
            }
            if s.unicodeScalars.contains(where: { $0.value == 0 }) { throw EventRejection("field \"\(name)\" contains a NUL character") }
            if let limit, s.utf8.count > limit {
                throw EventRejection("field \"\(name)\" is \(s.utf8.count) bytes, longer than the \(limit)-byte limit")
            }
            if ReasonText.isBlank(s) { throw EventRejection("field \"\(name)\" is empty or only whitespace") }
            return s
        }
        do throws(EventRejection) {
            let type = try string("type")!
            guard type == "reply" else { throw EventRejection("field \"type\" must be \"reply\", got \(ReasonText.quote(type))") }
            let id = try string("id")!
            let inReplyTo = try string("in_reply_to")!
            let taskID = try string("task_id")!
            let agentID = try string("agent_id")!
            let action = try string("action", required: false, limit: InteractionRules.maxIDLength)
            if let action, !action.unicodeScalars.allSatisfy({ InteractionRules.idCharacters.unicodeScalars.contains($0) }) {
                throw EventRejection("field \"action\" must be 1-64 characters of a-z 0-9 _ . -, got \(ReasonText.quote(action))")
            }
            let text = try string("text", required: false, limit: maxTextBytes)
            let answer: Answer
            switch (action, text) {
            case (let a?, nil): answer = .action(a)
            case (nil, let t?): answer = .text(t)
            case (nil, nil): throw EventRejection("a reply needs \"action\" or \"text\"")
            case (_?, _?): throw EventRejection("a reply has \"action\" or \"text\", not both")
            }
            let from = try string("from")!
            let stamp = try string("timestamp")!
            let micros: Int64
            switch Timestamp.parse(stamp) {
            case .success(let value): micros = value
            case .failure(let problem):
                throw EventRejection("field \"timestamp\" \(problem.phrase): \(ReasonText.quote(stamp))")
            }
            return .success(Reply(id: id, inReplyTo: inReplyTo, taskID: taskID, agentID: agentID, answer: answer,
                                  from: from, timestampMicros: micros))
        } catch {
            return .failure(error)
        }
    }
}
