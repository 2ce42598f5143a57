import StrictJSON
import TimelineCore

/// opencode's `permission.asked` (forwarded by timeline's plugin: `properties` with `id`, `permission` or
/// `type`, `patterns` or `pattern`, `always`): once, always, reject from the timeline. The hook prints
/// `{"response": "once"|"always"|"reject"}`; the plugin passes it to opencode's permission API. No answer:
/// nothing, and opencode's own prompt stays.
public struct OpencodePermissionPrompt: PromptAdapter {
    public let input: HookInput

    public init?(_ input: HookInput) {
        guard input.string("type") == "permission.asked", input.object("properties")?.string("id") != nil,
              OpencodeHooks.report(input, options: HookOptions()) != nil else { return nil }
        self.input = input
    }

    public var asked: HookReport { OpencodeHooks.report(input, options: HookOptions())! }

    /// The patterns "always" allows from now on.
    var alwaysPatterns: [String] {
        (input.object("properties")?.array("always") ?? []).compactMap { $0 as? String }
    }

    public func question(builder: HookEventBuilder, replyQueueURL: String) -> PermissionQuestion? {
        var report = asked
        if !alwaysPatterns.isEmpty {
            report.body += "\n\nAlways allow also allows from now on:\n" + alwaysPatterns.map { "- " + $0 }.joined(separator: "\n")
        }
        return QuestionEvent.make(report, actions: [QuestionAction(id: "allow", label: "Allow once", style: "primary"),
                                                    QuestionAction(id: "allow-session", label: "Always allow"),
                                                    QuestionAction(id: "deny", label: "Reject", style: "danger")],
                                  replyQueueURL: replyQueueURL, builder: builder)
    }

    public func decision(_ answer: PermissionAnswer, question: PermissionQuestion) -> String? {
        switch answer {
        case .allowOnce: return "{\"response\":\"once\"}"
        case .allowForSession: return "{\"response\":\"always\"}"
        case .deny: return "{\"response\":\"reject\"}"
        case .choice: return nil
        }
    }

    public func phrase(_ answer: PermissionAnswer) -> String {
        switch answer {
        case .allowForSession: return "Always allowed"
        case .deny: return "Rejected"
        default: return "Allowed"
        }
    }
}
