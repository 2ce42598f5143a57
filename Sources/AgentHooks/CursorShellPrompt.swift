import StrictJSON
import TimelineCore

/// Cursor's `beforeShellExecution` (`command`, `cwd`, `conversation_id`): allow or deny from the timeline,
/// as Cursor's documented answer `{"permission": "allow"|"deny"|"ask", "user_message", "agent_message"}`.
/// No answer: `ask` (Cursor asks its user).
public struct CursorShellPrompt: PromptAdapter {
    public let input: HookInput
    let command: String

    static let event = "beforeShellExecution"

    public init?(_ input: HookInput) {
        guard input.string("hook_event_name") == Self.event, let command = input.string("command"),
              CursorHooks.report(input, options: HookOptions()) != nil else { return nil }
        self.input = input
        self.command = command
    }

    public var asked: HookReport {
        var report = CursorHooks.report(input, options: HookOptions())!
        report.title = "Waiting for you: Shell \(TextCut.firstLine(command, limit: 120))"
        report.body = (input.string("cwd").map { "in \($0)\n" } ?? "") + "$ " + command
        report.status = .needsInput
        report.isStep = false
        return report
    }

    public func question(builder: HookEventBuilder, replyQueueURL: String) -> PermissionQuestion? {
        var report = asked
        report.body += "\n\nReply with text to deny with that message."
        return QuestionEvent.make(report, actions: [QuestionAction(id: "allow", label: "Allow once", style: "primary"),
                                                    QuestionAction(id: "deny", label: "Deny", style: "danger")],
                                  replyQueueURL: replyQueueURL, builder: builder)
    }

    public func decision(_ answer: PermissionAnswer, question: PermissionQuestion) -> String? {
        switch answer {
        case .allowOnce: return "{\"permission\":\"allow\"}"
        case .deny(let message):
            return "{\"permission\":\"deny\",\"user_message\":\"Denied from the timeline\",\"agent_message\":"
                + JSONWriter.quoted(message ?? "The user denied this command.") + "}"
        case .allowForSession, .choice: return nil
        }
    }

    public var unanswered: String? { Self.askTheUser }

    /// Cursor asks its own user.
    public static let askTheUser = "{\"permission\":\"ask\"}"
}
