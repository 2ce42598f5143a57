import TimelineCore

/// Gemini CLI's hooks (stdin JSON: `session_id`, `cwd`, `hook_event_name`; `BeforeTool`/`AfterTool` with
/// `tool_name`, `tool_input`, `tool_response`; `BeforeAgent` with `prompt`; `AfterAgent` with
/// `prompt_response`; `Notification` with `notification_type` and `message`; `SessionStart`/`SessionEnd`).
public enum GeminiHooks {
    /// The events `timeline hooks install gemini` registers.
    public static let installedEvents = [
        "SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "Notification", "AfterAgent", "PreCompress", "SessionEnd",
    ]

    public static func report(_ input: HookInput, options: HookOptions) -> HookReport? {
        guard let session = input.string("session_id"), let event = input.string("hook_event_name") else { return nil }
        let cwd = input.string("cwd")
        let make = ReportMaker(session: session, cwd: cwd)
        let tool = input.toolSummary(cwd: cwd)
        switch event {
        case "SessionStart": return make("Session started (\(input.string(["source", "trigger"]) ?? "startup"))", "", .info)
        case "BeforeAgent": return make.prompt(input.string("prompt"), options: options)
        case "BeforeTool": return make(tool ?? "Tool", input.json("tool_input") ?? "", .inProgress, step: true)
        case "AfterTool": return make("Finished \(tool ?? "tool")", input.json("tool_response") ?? "", .inProgress, step: true)
        case "Notification":
            let message = input.string("message") ?? "Gemini needs your attention"
            if input.string("notification_type") == "ToolPermission" {
                return make("Waiting for you: \(TextCut.firstLine(message))", input.json("details") ?? message, .needsInput)
            }
            return make(TextCut.firstLine(message), message, .info, step: true)
        case "AfterAgent":
            let message = input.string("prompt_response") ?? ""
            let line = TextCut.firstLine(message)
            return make(line.isEmpty ? "Done" : "Done: \(line)", message, .success)
        case "PreCompress": return make("Compressing the conversation", "", .inProgress, step: true)
        case "SessionEnd": return make("Session ended (\(input.string(["reason", "trigger"]) ?? "exit"))", "", .info, step: true)
        default: return make(event, "", .info, step: true)
        }
    }
}
