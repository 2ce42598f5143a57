import TimelineCore

/// Codex CLI: its `notify` program gets one JSON argument per finished turn (`type:
/// "agent-turn-complete"`, `thread-id`, `cwd`, `input-messages`, `last-assistant-message`); its hooks send
/// Claude Code's payload shape on stdin (`session_id`, `hook_event_name`, …), mapped the same way.
public enum CodexHooks {
    public static func reports(_ input: HookInput, options: HookOptions) -> [HookReport] {
        if input.string("hook_event_name") != nil {
            return ClaudeHooks.report(input, options: options).map { [$0] } ?? []
        }
        guard input.string("type") == "agent-turn-complete",
              let session = input.string(["thread-id", "thread_id", "session_id", "session-id"]) else { return [] }
        let message = input.string("last-assistant-message") ?? ""
        var body = message
        if options.includePrompts, let prompts = input.array("input-messages")?.compactMap({ $0 as? String }), !prompts.isEmpty {
            body = "You asked: " + prompts.joined(separator: "\n") + (message.isEmpty ? "" : "\n\n" + message)
        }
        let line = TextCut.firstLine(message)
        return [HookReport(session: session, cwd: input.string("cwd"), title: line.isEmpty ? "Done" : "Done: \(line)",
                           body: body, status: .success)]
    }
}
