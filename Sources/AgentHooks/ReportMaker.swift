import TimelineCore

/// Makes the reports of one hook call, all for its session and working directory; the one rule for a
/// submitted prompt lives here too.
struct ReportMaker {
    let session: String
    let cwd: String?

    /// `make("Finished build", body, .inProgress, step: true)`.
    func callAsFunction(_ title: String, _ body: String = "", _ status: Status, step: Bool = false) -> HookReport {
        HookReport(session: session, cwd: cwd, title: title, body: body, status: status, isStep: step)
    }

    /// The user submitted a prompt: the agent is working; its first line and text only when the user chose to
    /// share prompts (`HookOptions.includePrompts`).
    func prompt(_ prompt: String?, options: HookOptions) -> HookReport {
        guard options.includePrompts, let prompt else { return self("Working on a new prompt", "", .inProgress) }
        return self("Working: \(TextCut.firstLine(prompt))", prompt, .inProgress)
    }
}

extension HookInput {
    /// `tool_name` with `tool_input` in words (`Bash rm -rf build`), in the Claude Code payload shape.
    func toolSummary(cwd: String?) -> String? {
        string("tool_name").map { ToolSummary.describe(tool: $0, input: object("tool_input"), cwd: cwd) }
    }
}
