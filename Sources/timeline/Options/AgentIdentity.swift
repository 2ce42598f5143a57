/// Which agent publishes or asks (`publish`, `ask`): `--agent-id`, else `$TIMELINE_AGENT_ID` (empty counts
/// as unset); nil when neither gives one.
enum AgentIdentity {
    static func resolve(flag: String?, environment: [String: String]) -> String? {
        flag ?? environment["TIMELINE_AGENT_ID"].flatMap { $0.isEmpty ? nil : $0 }
    }
}
