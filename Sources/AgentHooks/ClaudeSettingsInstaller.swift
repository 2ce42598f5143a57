/// Claude Code's `settings.json`: one command hook per reporting event, `async` (Claude does not wait for
/// it) with a timeout in seconds that covers the hook's own budget.
enum ClaudeSettingsInstaller {
    /// Seconds Claude lets the hook run (the hook itself returns within its budget, 2 s).
    static let timeoutSeconds = 10

    /// Events whose hook Claude must wait for: the last ones of a turn or session, which a print-mode run
    /// (`claude -p`) does not wait for when they run in the background. The hook still returns within its
    /// budget.
    static let synchronousEvents: Set<String> = ["Stop", "StopFailure", "SessionEnd"]

    /// The hooks; `PermissionRequest` and `PreToolUse` for `AskUserQuestion` run in the foreground with a
    /// timeout covering `permissionWait`
    /// seconds (the time a prompt may wait for an answer from the timeline) and the hook's own budget.
    static func installer(permissionWait: Int64 = PermissionPrompt.defaultWaitSeconds) -> MatcherGroupInstaller {
        MatcherGroupInstaller(
            agent: .claude, events: ClaudeHooks.installedEvents,
            entry: { command, event in
                let timeout = event == "PermissionRequest" ? PermissionPrompt.hookTimeout(wait: permissionWait) : timeoutSeconds
                var entry: [(String, JSONValue)] = [
                    ("type", .string("command")), ("command", .string(command)), ("timeout", .number(timeout)),
                ]
                if !synchronousEvents.contains(event), event != "PermissionRequest" { entry.append(("async", .bool(true))) }
                return entry
            },
            matcher: { _ in nil },
            extraGroups: { command, event in
                // AskUserQuestion answered from the timeline: its own foreground hook (the reporting one
                // stays in the background).
                guard event == "PreToolUse" else { return [] }
                return [(matcher: "AskUserQuestion", entry: [("type", .string("command")), ("command", .string(command)),
                                                             ("timeout", .number(PermissionPrompt.hookTimeout(wait: permissionWait)))])]
            })
    }
}
