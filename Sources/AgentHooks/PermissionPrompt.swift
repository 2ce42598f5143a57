import Foundation
import StrictJSON
import TimelineCore

/// A Claude Code permission prompt (`PermissionRequest`) asked on the timeline: the question event, the
/// answers it offers, and the decision Claude reads on stdout.
public struct PermissionQuestion: Sendable, Equatable {
    /// The question's event id: a reply must name exactly this (`in_reply_to`).
    public var questionID: String
    public var taskID: String
    public var agentID: String
    /// The action ids offered: `allow`, `allow-session` (only when Claude suggests a rule), `deny`.
    public var actions: [String]
    /// Where replies come back (`reply_to`).
    public var replyQueueURL: String
    /// The question event's payload.
    public var payload: String
    /// Claude's `permission_suggestions` as a JSON array: what "allow for the session" applies, all of
    /// it, as Claude's own "don't ask again" choice does.
    public var sessionRules: String?
}

/// What the user answered.
public enum PermissionAnswer: Sendable, Equatable {
    case allowOnce
    case allowForSession
    /// Denied; a text reply becomes the message Claude gets.
    case deny(message: String?)

    /// The answer a reply means (`action` or `text`), nil when it names an action not offered.
    public init?(action: String?, text: String?, offered: [String]) {
        switch action {
        case nil:
            guard let text, !text.isEmpty, offered.contains("deny") else { return nil }
            self = .deny(message: text)
        case let id? where !offered.contains(id):
            return nil
        case "allow": self = .allowOnce
        case "allow-session": self = .allowForSession
        case "deny": self = .deny(message: text.flatMap { $0.isEmpty ? nil : $0 })
        default: return nil
        }
    }
}

/// Waits for the accepted answer to a question. Accepting a reply is a grant: an implementation takes
/// only a reply to the exact question id, for the same task and agent, naming an offered action, each
/// reply id once, from an allowed SQS `SenderId`; everything else is ignored.
public protocol PermissionAnswerWaiter: Sendable {
    /// The answer, nil when none was accepted by `deadline`.
    func answer(to question: PermissionQuestion, until deadline: Date) -> PermissionAnswer?
}

public enum PermissionPrompt {
    /// Seconds a prompt waits for an answer when nothing says otherwise.
    public static let defaultWaitSeconds: Int64 = 120

    /// The question for a `PermissionRequest` payload; nil for any other payload.
    public static func question(
        _ input: HookInput, builder: HookEventBuilder, replyQueueURL: String
    ) -> PermissionQuestion? {
        guard input.string("hook_event_name") == "PermissionRequest",
              var report = ClaudeHooks.report(input, options: HookOptions()) else { return nil }
        let suggestions = (input.array("permission_suggestions") ?? []).compactMap { $0 as? [String: Any] }
        let rules = suggestions.isEmpty ? nil : JSONWriter.encode(suggestions).map { String(decoding: $0, as: UTF8.self) }
        var actions = [("allow", "Allow once", "primary")]
        if rules != nil {
            actions.append(("allow-session", "Allow for this session", "default"))
            report.body += "\n\nAllow for this session also grants:\n" + suggestions.map(describe).joined(separator: "\n")
        }
        actions.append(("deny", "Deny", "danger"))
        report.body += "\n\nReply with text to deny with that message."
        guard let base = builder.payload(for: report), base.hasSuffix("}"),
              case .success(let event) = EventParser.parse(base) else { return nil }
        let actionJSON = actions.map { id, label, style in
            "{\"id\":\(JSONWriter.quoted(id)),\"label\":\(JSONWriter.quoted(label)),\"style\":\(JSONWriter.quoted(style))}"
        }.joined(separator: ",")
        let payload = String(base.dropLast()) + ",\"actions\":[\(actionJSON)],\"reply_to\":\(JSONWriter.quoted(replyQueueURL))}"
        guard case .success = EventParser.parse(payload) else { return nil }
        return PermissionQuestion(questionID: event.id, taskID: event.taskID, agentID: event.agentID,
                                  actions: actions.map(\.0), replyQueueURL: replyQueueURL, payload: payload, sessionRules: rules)
    }

    /// What Claude reads on stdout for `answer` (its documented `hookSpecificOutput.decision`).
    public static func decisionJSON(_ answer: PermissionAnswer, question: PermissionQuestion) -> String {
        let decision: String
        switch answer {
        case .allowOnce:
            decision = "{\"behavior\":\"allow\"}"
        case .allowForSession:
            decision = "{\"behavior\":\"allow\",\"updatedPermissions\":\(question.sessionRules ?? "[]")}"
        case .deny(let message):
            decision = "{\"behavior\":\"deny\",\"message\":\(JSONWriter.quoted(message ?? "Denied from the timeline"))}"
        }
        return "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":\(decision)}}"
    }

    /// One permission update in words: `addRules allow Bash(npm test:*) (localSettings)`.
    static func describe(_ suggestion: [String: Any]) -> String {
        var parts = ["- " + ((suggestion["type"] as? String) ?? "change")]
        if let behavior = suggestion["behavior"] as? String { parts.append(behavior) }
        if let rules = suggestion["rules"] as? [[String: Any]] {
            parts.append(rules.map { rule in
                let tool = (rule["toolName"] as? String) ?? "?"
                return (rule["ruleContent"] as? String).map { "\(tool)(\($0))" } ?? tool
            }.joined(separator: ", "))
        }
        if let directories = suggestion["directories"] as? [String] { parts.append(directories.joined(separator: ", ")) }
        if let mode = suggestion["mode"] as? String { parts.append(mode) }
        if let destination = suggestion["destination"] as? String { parts.append("(\(destination))") }
        return parts.joined(separator: " ")
    }

    /// The event that closes the question on the timeline: answered there, withdrawn (no answer in
    /// time: Claude asks in its terminal), or answered in the terminal (the hook was stopped).
    public enum Outcome: Sendable {
        case answered(PermissionAnswer)
        case withdrawn
        case answeredInTerminal
    }

    public static func followUp(_ outcome: Outcome, to input: HookInput, builder: HookEventBuilder) -> String? {
        guard let asked = ClaudeHooks.report(input, options: HookOptions()) else { return nil }
        let what = asked.title.replacingOccurrences(of: "Waiting for you: ", with: "")
        var report = asked
        switch outcome {
        case .answered(.allowOnce): (report.title, report.status) = ("Allowed from the timeline: \(what)", .inProgress)
        case .answered(.allowForSession):
            (report.title, report.status) = ("Allowed for the session from the timeline: \(what)", .inProgress)
        case .answered(.deny(let message)):
            (report.title, report.status, report.body) = ("Denied from the timeline: \(what)", .inProgress, message ?? "")
        case .withdrawn:
            (report.title, report.status) = ("Waiting for you in the terminal: \(what)", .needsInput)
            report.body = "No answer came from the timeline in time; the question was withdrawn.\n\n" + report.body
        case .answeredInTerminal: (report.title, report.status) = ("Answered in the terminal: \(what)", .inProgress)
        }
        return builder.payload(for: report)
    }
}
