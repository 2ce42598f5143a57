import Foundation
import TimelineCore

/// Claude Code's hook events (stdin JSON: `session_id`, `cwd`, `hook_event_name` and per-event fields) as
/// reports. Tool events are steps; the task's state comes from the prompt (working), permission prompts
/// and notifications (waiting), `Stop` (done, unless `background_tasks` are still in flight: then still
/// working), `StopFailure` (failed); `SessionEnd` keeps the outcome.
public enum ClaudeHooks {
    /// The events `timeline hooks install claude` registers (never `WorktreeCreate`: a hook there replaces
    /// Claude's own worktree creation).
    public static let installedEvents = [
        "SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest",
        "Notification", "SubagentStart", "SubagentStop", "PreCompact", "Stop", "StopFailure", "SessionEnd",
    ]

    /// The report for one payload; nil when there is nothing to publish (no session, a prompt the user did
    /// not choose to share is still reported, without its text). `lastAssistantText` reads the transcript
    /// when `Stop` carries no `last_assistant_message` (older versions).
    public static func report(
        _ input: HookInput, options: HookOptions, lastAssistantText: (String) -> String? = { _ in nil }
    ) -> HookReport? {
        guard let session = input.string("session_id"), let event = input.string("hook_event_name") else { return nil }
        let cwd = input.string("cwd")
        let make = ReportMaker(session: session, cwd: cwd)
        let tool = input.toolSummary(cwd: cwd)
        switch event {
        case "SessionStart":
            return make("Session started (\(input.string("source") ?? "startup"))", "", .info)
        case "UserPromptSubmit":
            return make.prompt(input.string("prompt"), options: options)
        case "PreToolUse" where input.string("tool_name") == "AskUserQuestion":
            // Claude asks the user. One question is asked on the timeline by the foreground hook
            // (`AskUserQuestionPrompt`): here an informational step, which leaves that wait alone.
            let questions = (input.object("tool_input")?.array("questions") ?? []).compactMap { $0 as? [String: Any] }
            let first = TextCut.firstLine((questions.first?["question"] as? String) ?? "a question")
            if AskUserQuestionPrompt(input) != nil { return make("Asking you: \(first)", input.json("tool_input") ?? "", .info, step: true) }
            return make("Waiting for you: \(first)", toolInputBody(input), .needsInput)
        case "PreToolUse":
            return make(tool ?? "Tool", toolInputBody(input), .inProgress, step: true)
        case "PostToolUse":
            return make("Finished \(tool ?? "tool")", input.json("tool_response") ?? "", .inProgress, step: true)
        case "PostToolUseFailure":
            return make("Tool failed: \(tool ?? "tool")", input.string("error") ?? "", .inProgress, step: true)
        case "PermissionRequest":
            return make("Waiting for you: \(waitingSummary(tool))", toolInputBody(input), .needsInput)
        case "Notification":
            let message = input.string("message") ?? "Claude needs your attention"
            switch input.string("notification_type") {
            case "permission_prompt", "elicitation_dialog":
                return make("Waiting for you: \(TextCut.firstLine(message))", message, .needsInput)
            default:
                // Idle reminders and the like: history only, the task keeps its state.
                return make(TextCut.firstLine(message), message, .info, step: true)
            }
        case "SubagentStart":
            return make("Subagent started: \(input.string("agent_type") ?? "agent")", "", .inProgress, step: true)
        case "SubagentStop":
            return make("Subagent finished: \(input.string("agent_type") ?? "agent")",
                        input.string("last_assistant_message") ?? "", .inProgress, step: true)
        case "PreCompact":
            return make("Compacting the conversation (\(input.string("trigger") ?? "auto"))", "", .inProgress, step: true)
        case "Stop":
            // In-flight background work (shells, subagents, monitors): the session pauses, it is not done.
            let background = (input.array("background_tasks") ?? []).compactMap { $0 as? [String: Any] }
            if !background.isEmpty {
                let lines = background.map { task in
                    "\((task["type"] as? String) ?? "task") (\((task["status"] as? String) ?? "running")): \((task["description"] as? String) ?? "")"
                }
                let first = (background[0]["description"] as? String).map { ": " + TextCut.firstLine($0, limit: 80) } ?? ""
                let count = background.count == 1 ? "1 background task" : "\(background.count) background tasks"
                return make("Waiting for \(count)\(first)", lines.joined(separator: "\n"), .inProgress)
            }
            let message = input.string("last_assistant_message") ?? input.string("transcript_path").flatMap(lastAssistantText) ?? ""
            let line = TextCut.firstLine(message)
            return make(line.isEmpty ? "Done" : "Done: \(line)", message, .success)
        case "StopFailure":
            let reason = input.string("error").map(phrase) ?? "error"
            let details = [input.string("error_details"), input.string("last_assistant_message")].compactMap { $0 }
            return make("Failed: \(reason)", details.joined(separator: "\n\n"), .error)
        case "SessionEnd":
            return make("Session ended (\(phrase(input.string("reason") ?? "exit")))", "", .info, step: true)
        case "WorktreeCreate":
            return nil
        default:
            return make(event, "", .info, step: true)
        }
    }

    /// "Bash: rm -rf build" as "Bash rm -rf build" (after "Waiting for you:").
    static func waitingSummary(_ tool: String?) -> String {
        guard let tool else { return "a permission" }
        guard let colon = tool.firstIndex(of: ":") else { return tool }
        return String(tool[..<colon]) + String(tool[tool.index(after: colon)...])
    }

    /// The tool's input: the command and its description, an edit's old and new text, else the JSON.
    static func toolInputBody(_ input: HookInput) -> String {
        guard let toolInput = input.object("tool_input") else { return "" }
        if let command = toolInput.string("command") {
            return [toolInput.string("description"), "$ " + command].compactMap { $0 }.joined(separator: "\n")
        }
        if let old = toolInput.string("old_string"), let new = toolInput.string("new_string") {
            let lines = { (text: String) in text.split(separator: "\n", omittingEmptySubsequences: false) }
            let diff = lines(old).map { "- \($0)" } + lines(new).map { "+ \($0)" }
            return ([toolInput.string("file_path")].compactMap { $0 } + diff).joined(separator: "\n")
        }
        return input.json("tool_input") ?? ""
    }

    /// `rate_limit` → `rate limit`, `prompt_input_exit` → `prompt input exit`.
    static func phrase(_ code: String) -> String {
        code.replacingOccurrences(of: "_", with: " ")
    }
}
