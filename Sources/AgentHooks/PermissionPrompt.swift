import Foundation
import StrictJSON
import TimelineCore

/// An agent's prompt asked on the timeline: the question event and the answers it offers. Each agent's
/// `PromptAdapter` makes it from the agent's payload and turns the answer into what the agent reads.
public struct PermissionQuestion: Sendable, Equatable {
    /// The question's event id: a reply must name exactly this (`in_reply_to`).
    public var questionID: String
    public var taskID: String
    public var agentID: String
    /// The action ids offered: `allow`, `allow-session`, `deny` for permission prompts; one id per option
    /// for a question with options. A text reply is accepted only where `deny` is offered (it denies).
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
    /// Denied; a text reply becomes the message the agent gets.
    case deny(message: String?)
    /// One of a question's options (its action id).
    case choice(String)

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
        case let id?: self = .choice(id)
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

/// Claude Code's `PermissionRequest` (and Codex CLI's, which takes Claude's decision shape but no permission
/// updates): allow once, allow for the session (Claude only, when it suggests rules), deny.
public struct PermissionRequestPrompt: PromptAdapter {
    public let input: HookInput
    /// Whether "allow for the session" may be offered (Codex refuses `updatedPermissions`).
    public let offersSessionRules: Bool

    public init?(_ input: HookInput, offersSessionRules: Bool = true) {
        guard input.string("hook_event_name") == "PermissionRequest", ClaudeHooks.report(input, options: HookOptions()) != nil
        else { return nil }
        self.input = input
        self.offersSessionRules = offersSessionRules
    }

    public var asked: HookReport { ClaudeHooks.report(input, options: HookOptions())! }

    public func question(builder: HookEventBuilder, replyQueueURL: String) -> PermissionQuestion? {
        var report = asked
        let suggestions = offersSessionRules ? (input.array("permission_suggestions") ?? []).compactMap { $0 as? [String: Any] } : []
        let rules = suggestions.isEmpty ? nil : JSONWriter.encode(suggestions).map { String(decoding: $0, as: UTF8.self) }
        var actions = [QuestionAction(id: "allow", label: "Allow once", style: "primary")]
        if rules != nil {
            actions.append(QuestionAction(id: "allow-session", label: "Allow for this session", style: "default"))
            report.body += "\n\nAllow for this session also grants:\n" + suggestions.map(PermissionPrompt.describe).joined(separator: "\n")
        }
        actions.append(QuestionAction(id: "deny", label: "Deny", style: "danger"))
        report.body += "\n\nReply with text to deny with that message."
        var question = QuestionEvent.make(report, actions: actions, replyQueueURL: replyQueueURL, builder: builder)
        question?.sessionRules = rules
        return question
    }

    /// The documented `hookSpecificOutput.decision` (Claude Code's, which Codex CLI reads too).
    public func decision(_ answer: PermissionAnswer, question: PermissionQuestion) -> String? {
        Self.decisionJSON(answer, sessionRules: question.sessionRules)
    }

    static func decisionJSON(_ answer: PermissionAnswer, sessionRules: String?) -> String? {
        let decision: String
        switch answer {
        case .allowOnce:
            decision = "{\"behavior\":\"allow\"}"
        case .allowForSession:
            decision = "{\"behavior\":\"allow\",\"updatedPermissions\":\(sessionRules ?? "[]")}"
        case .deny(let message):
            decision = "{\"behavior\":\"deny\",\"message\":\(JSONWriter.quoted(message ?? "Denied from the timeline"))}"
        case .choice:
            return nil
        }
        return "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":\(decision)}}"
    }
}

/// Claude Code's `PermissionRequest` as before the adapters: the entry points its tests and callers use.
public enum PermissionPrompt {
    /// Seconds a prompt waits for an answer when nothing says otherwise.
    public static let defaultWaitSeconds: Int64 = 120

    /// The timeout an agent gives a hook that may wait `wait` seconds for an answer: the wait, plus
    /// publishing the question and its follow-up (the hook's budget each) and a receive that outlives the
    /// wait when SQS never answers (its own timeout margin). Killed before it prints, a hook answers nothing.
    public static func hookTimeout(wait: Int64) -> Int { Int(wait) + 30 }

    /// The question for a `PermissionRequest` payload; nil for any other payload.
    public static func question(
        _ input: HookInput, builder: HookEventBuilder, replyQueueURL: String
    ) -> PermissionQuestion? {
        PermissionRequestPrompt(input)?.question(builder: builder, replyQueueURL: replyQueueURL)
    }

    /// What Claude reads on stdout for `answer` (its documented `hookSpecificOutput.decision`).
    public static func decisionJSON(_ answer: PermissionAnswer, question: PermissionQuestion) -> String {
        PermissionRequestPrompt.decisionJSON(answer, sessionRules: question.sessionRules) ?? ""
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

    /// How a question ended on the timeline: answered there, withdrawn (no answer in time: the agent asks
    /// in its terminal), or answered in the terminal (the hook was stopped).
    public enum Outcome: Sendable {
        case answered(PermissionAnswer)
        case withdrawn
        case answeredInTerminal
    }

    public static func followUp(_ outcome: Outcome, to input: HookInput, builder: HookEventBuilder) -> String? {
        PermissionRequestPrompt(input)?.followUp(outcome, builder: builder)
    }
}
