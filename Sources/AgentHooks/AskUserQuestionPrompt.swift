import Foundation
import SharedRules
import StrictJSON
import TimelineCore

/// Claude Code's `AskUserQuestion` tool, seen by a `PreToolUse` hook (`tool_input.questions`: `question`,
/// `header`, `options` of `{label, description}`, `multiSelect`). One question is asked on the timeline,
/// each option a button; the chosen label goes back as the documented `PreToolUse` decision: `allow` with
/// `updatedInput` = the tool's input plus `answers` (question text → label). A call asking several
/// questions at once is only reported: Claude asks them in its terminal.
public struct AskUserQuestionPrompt: PromptAdapter {
    public let input: HookInput
    /// The tool's input, all of it (the answer goes back as this plus `answers`).
    let toolInput: HookInput
    let questionText: String
    /// The options' labels, in order; the action ids are `option-1`, `option-2`, ….
    let labels: [String]
    let descriptions: [String]

    /// Most buttons an event may carry.
    static let maxOptions = 6
    /// Columns a button's label is cut to (an event allows 40).
    static let labelColumns = 36

    public init?(_ input: HookInput) {
        guard input.string("hook_event_name") == "PreToolUse", input.string("tool_name") == "AskUserQuestion",
              input.string("session_id") != nil,
              let toolInput = input.fields["tool_input"] as? [String: Any],
              let questions = toolInput["questions"] as? [[String: Any]], questions.count == 1,
              let text = questions[0]["question"] as? String, !text.isEmpty,
              let options = questions[0]["options"] as? [[String: Any]], (1...Self.maxOptions).contains(options.count)
        else { return nil }
        let labels = options.compactMap { $0["label"] as? String }
        guard labels.count == options.count, !labels.contains(where: \.isEmpty) else { return nil }
        self.input = input
        self.toolInput = HookInput(fields: toolInput)
        questionText = text
        self.labels = labels
        descriptions = options.map { ($0["description"] as? String) ?? "" }
    }

    public var asked: HookReport {
        let body = zip(labels, descriptions).enumerated().map { index, option in
            "\(index + 1). \(option.0)" + (option.1.isEmpty ? "" : ": \(option.1)")
        }
        return HookReport(session: input.string("session_id") ?? "", cwd: input.string("cwd"),
                          title: "Waiting for you: \(TextCut.firstLine(questionText))",
                          body: ([questionText, ""] + body).joined(separator: "\n"), status: .needsInput)
    }

    public func question(builder: HookEventBuilder, replyQueueURL: String) -> PermissionQuestion? {
        let actions = labels.enumerated().map { index, label in
            QuestionAction(id: "option-\(index + 1)",
                           label: DisplayText.truncate(DisplayText.sanitize(TextCut.firstLine(SecretRedaction.redact(label))),
                                                       toWidth: Self.labelColumns),
                           style: index == 0 ? "primary" : "default")
        }
        return QuestionEvent.make(asked, actions: actions, replyQueueURL: replyQueueURL, builder: builder)
    }

    /// The chosen option's label, nil for anything that is not one of the options.
    func label(_ answer: PermissionAnswer) -> String? {
        guard case .choice(let id) = answer, id.hasPrefix("option-"), let index = Int(id.dropFirst(7)),
              labels.indices.contains(index - 1) else { return nil }
        return labels[index - 1]
    }

    public func decision(_ answer: PermissionAnswer, question: PermissionQuestion) -> String? {
        guard let label = label(answer) else { return nil }
        var updated = toolInput.fields
        var answers = (updated["answers"] as? [String: Any]) ?? [:]
        answers[questionText] = label
        updated["answers"] = answers
        guard let encoded = JSONWriter.encode(updated).map({ String(decoding: $0, as: UTF8.self) }) else { return nil }
        return "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\","
            + "\"permissionDecisionReason\":\"Answered from the timeline\",\"updatedInput\":\(encoded)}}"
    }

    public func phrase(_ answer: PermissionAnswer) -> String {
        label(answer).map { "Chose \(TextCut.firstLine($0, limit: 60))" } ?? "Answered"
    }
}
