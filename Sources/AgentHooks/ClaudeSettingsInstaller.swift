/// Claude Code's `settings.json`: one command hook per reporting event, `async` (Claude does not wait for
/// it) with a timeout in seconds that covers the hook's own budget.
enum ClaudeSettingsInstaller {
    /// Seconds Claude lets the hook run (the hook itself returns within its budget, 2.5 s).
    static let timeoutSeconds = 10

    static var installer: MatcherGroupInstaller {
        MatcherGroupInstaller(
            agent: .claude, events: ClaudeHooks.installedEvents,
            entry: { command, _ in
                [("type", .string("command")), ("command", .string(command)), ("timeout", .number(timeoutSeconds)),
                 ("async", .bool(true))]
            },
            matcher: { _ in nil })
    }
}
