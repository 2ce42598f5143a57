import TimelineCore

/// Cursor's hooks (`.cursor/hooks.json`; stdin JSON: `conversation_id`, `hook_event_name`,
/// `workspace_roots`; `beforeSubmitPrompt` with `prompt`, `beforeShellExecution`/`afterShellExecution`
/// with `command`, `afterFileEdit` with `file_path`, `beforeMCPExecution`/`afterMCPExecution` with
/// `tool_name`, `stop` with `status`: completed, aborted or error).
public enum CursorHooks {
    /// The events `timeline hooks install cursor` registers. `beforeShellExecution` is the one whose output
    /// Cursor reads as a permission decision: answered from the timeline, else `ask` (Cursor asks its user).
    public static let installedEvents = [
        "beforeSubmitPrompt", "beforeShellExecution", "afterShellExecution", "afterMCPExecution", "afterFileEdit", "stop",
    ]

    public static func report(_ input: HookInput, options: HookOptions) -> HookReport? {
        guard let session = input.string(["conversation_id", "session_id"]), let event = input.string("hook_event_name") else {
            return nil
        }
        let cwd = input.string("cwd") ?? (input.array("workspace_roots")?.first as? String)
        let make = ReportMaker(session: session, cwd: cwd)
        switch event {
        case "beforeSubmitPrompt": return make.prompt(input.string("prompt"), options: options)
        case "beforeShellExecution", "afterShellExecution":
            let command = input.string("command") ?? ""
            let title = "Shell: \(TextCut.firstLine(command, limit: 120))"
            return make(event == "afterShellExecution" ? "Finished \(title)" : title,
                        input.string("output") ?? command, .inProgress, step: true)
        case "beforeMCPExecution", "afterMCPExecution":
            let tool = "MCP \(input.string("tool_name") ?? "tool")"
            return make(event == "afterMCPExecution" ? "Finished \(tool)" : tool,
                        input.json("result_json") ?? input.json("tool_input") ?? "", .inProgress, step: true)
        case "afterFileEdit":
            return make("Edit \(ToolSummary.relative(input.string("file_path") ?? "a file", to: cwd))",
                        input.json("edits") ?? "", .inProgress, step: true)
        case "stop":
            switch input.string("status") {
            case "error": return make("Failed: the agent stopped with an error", "", .error)
            case "aborted": return make("Stopped by you", "", .warning)
            default: return make("Done", "", .success)
            }
        default:
            return make(event, "", .info, step: true)
        }
    }
}
