/// The agents whose own hooks (or plugin interface) can feed the timeline.
public enum HookAgent: String, CaseIterable, Sendable {
    case claude, codex, gemini, cursor, opencode, aider

    /// The agent's product name, for messages.
    public var displayName: String {
        switch self {
        case .claude: return "Claude Code"
        case .codex: return "Codex CLI"
        case .gemini: return "Gemini CLI"
        case .cursor: return "Cursor"
        case .opencode: return "opencode"
        case .aider: return "aider"
        }
    }
}
