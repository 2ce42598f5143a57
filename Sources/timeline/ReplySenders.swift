import TimelineCore

/// The reply sender allowlist: `TIMELINE_REPLY_SENDERS` (comma-separated SenderIds), else the config file's
/// `reply_senders` list, else none.
enum ReplySenders {
    static func allowlist(environment: [String: String]) throws -> SenderAllowlist? {
        if let value = environment["TIMELINE_REPLY_SENDERS"], let list = try SenderAllowlist.parse(value) { return list }
        guard let entries = try UserConfig.file().values["reply_senders"], !entries.isEmpty else { return nil }
        return try SenderAllowlist(entries: entries)
    }
}
