/// Gemini CLI's `settings.json`: Claude Code's shape, timeouts in milliseconds, `*` matchers on tool events.
enum GeminiSettingsInstaller {
    static let timeoutMilliseconds = 5_000

    static var installer: MatcherGroupInstaller {
        MatcherGroupInstaller(
            agent: .gemini, events: GeminiHooks.installedEvents,
            entry: { command, _ in
                [("name", .string("timeline")), ("type", .string("command")), ("command", .string(command)),
                 ("timeout", .number(timeoutMilliseconds))]
            },
            matcher: { event in event.hasSuffix("Tool") ? "*" : nil })
    }
}
