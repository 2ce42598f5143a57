import Foundation
import StrictJSON
import TimelineCore

/// One agent's prompt that a hook may answer, read from the agent's payload: the question it asks on the
/// timeline and the decision the agent reads on stdout. `PermissionFlow` runs every adapter the same way.
public protocol PromptAdapter: Sendable {
    /// The prompt as a report ("Waiting for you: …", `needs_input`): the question's base and its follow-ups'.
    var asked: HookReport { get }
    /// The question event with its actions and `reply_to`; nil when it cannot be asked on the timeline.
    func question(builder: HookEventBuilder, replyQueueURL: String) -> PermissionQuestion?
    /// What the agent reads for `answer`; nil when the answer means nothing to this prompt.
    func decision(_ answer: PermissionAnswer, question: PermissionQuestion) -> String?
    /// What the agent reads when no answer came from the timeline (nil: nothing; the agent asks its user).
    var unanswered: String? { get }
    /// An answer in words, for the follow-up's title ("Allowed", "Chose Postgres").
    func phrase(_ answer: PermissionAnswer) -> String
}

extension PromptAdapter {
    public var unanswered: String? { nil }

    public func phrase(_ answer: PermissionAnswer) -> String {
        switch answer {
        case .allowOnce: return "Allowed"
        case .allowForSession: return "Allowed for the session"
        case .deny: return "Denied"
        case .choice(let id): return "Answered \(id)"
        }
    }

    /// The event that closes the question on the timeline.
    public func followUp(_ outcome: PermissionPrompt.Outcome, builder: HookEventBuilder) -> String? {
        var report = asked
        let what = report.title.replacingOccurrences(of: "Waiting for you: ", with: "")
        report.isStep = false
        switch outcome {
        case .answered(let answer):
            (report.title, report.status) = ("\(phrase(answer)) from the timeline: \(what)", .inProgress)
            if case .deny(let message) = answer { report.body = message ?? "" }
        case .withdrawn:
            (report.title, report.status) = ("Waiting for you in the terminal: \(what)", .needsInput)
            report.body = "No answer came from the timeline in time; the question was withdrawn.\n\n" + report.body
        case .answeredInTerminal: (report.title, report.status) = ("Answered in the terminal: \(what)", .inProgress)
        }
        return builder.payload(for: report)
    }
}

/// The prompts each agent lets a hook answer.
public enum PromptAdapters {
    /// The adapter for `input` from `agent`'s hook; nil for a payload that is not an answerable prompt.
    public static func adapter(for agent: HookAgent, input: HookInput) -> (any PromptAdapter)? {
        switch agent {
        case .claude: return PermissionRequestPrompt(input) ?? AskUserQuestionPrompt(input)
        case .codex: return PermissionRequestPrompt(input, offersSessionRules: false)
        case .cursor: return CursorShellPrompt(input)
        case .opencode: return OpencodePermissionPrompt(input)
        case .gemini, .aider: return nil
        }
    }
}

/// A button of a question: `id` is what a reply names.
public struct QuestionAction: Sendable, Equatable {
    public var id: String
    public var label: String
    public var style: String

    public init(id: String, label: String, style: String = "default") {
        self.id = id
        self.label = label
        self.style = style
    }
}

/// The question event: the report as an event, plus its actions and `reply_to`, validated.
enum QuestionEvent {
    static func make(_ report: HookReport, actions: [QuestionAction], replyQueueURL: String,
                     builder: HookEventBuilder) -> PermissionQuestion? {
        guard let base = builder.payload(for: report), base.hasSuffix("}"),
              case .success(let event) = EventParser.parse(base) else { return nil }
        let actionJSON = actions.map { action in
            "{\"id\":\(JSONWriter.quoted(action.id)),\"label\":\(JSONWriter.quoted(action.label)),\"style\":\(JSONWriter.quoted(action.style))}"
        }.joined(separator: ",")
        let payload = String(base.dropLast()) + ",\"actions\":[\(actionJSON)],\"reply_to\":\(JSONWriter.quoted(replyQueueURL))}"
        guard case .success = EventParser.parse(payload) else { return nil }
        return PermissionQuestion(questionID: event.id, taskID: event.taskID, agentID: event.agentID,
                                  actions: actions.map(\.id), replyQueueURL: replyQueueURL, payload: payload, sessionRules: nil)
    }
}
