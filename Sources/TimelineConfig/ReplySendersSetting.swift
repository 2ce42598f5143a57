import TimelineCore

/// The reply sender allowlist setting, in one place for every command that accepts replies:
/// `TIMELINE_REPLY_SENDERS` (comma-separated SenderIds) wins over the config file's `reply_senders` list;
/// neither set (or only blank): no allowlist.
public enum ReplySendersSetting {
    public static let environmentName = "TIMELINE_REPLY_SENDERS"

    public static func allowlist(environment: [String: String], file: ConfigFile) throws(SenderAllowlist.Problem) -> SenderAllowlist? {
        if let value = environment[environmentName], let list = try SenderAllowlist.parse(value) { return list }
        guard let entries = file.values["reply_senders"], !entries.isEmpty else { return nil }
        return try SenderAllowlist(entries: entries)
    }
}
