/// The host of an agent id: the text after its last `@` (`claude@laptop` → `laptop`), as agents' hooks
/// name themselves `AGENT@HOST`; empty when the id has no `@`. The store's SQL for `host:` mirrors this
/// (`FilterSQL.hostOf`).
public enum AgentHost {
    public static func of(_ agentID: String) -> String {
        guard let at = agentID.lastIndex(of: "@") else { return "" }
        return String(agentID[agentID.index(after: at)...])
    }
}
