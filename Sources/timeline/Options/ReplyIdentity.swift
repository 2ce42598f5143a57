import Foundation
import TimelineConfig
import TimelineCore

/// Who replies are from: `--from`, else `$TIMELINE_FROM`, else `from` in the config file, else `user@host`.
enum ReplyIdentity {
    /// The identity and where it came from (`timeline config` shows both).
    static func setting(flag: String?) throws -> (value: String, source: String) {
        let setting = try UserConfig.resolver().resolve(
            "from", flag: flag, flagName: "--from", environmentNames: ["TIMELINE_FROM"], fallback: nil)
        if let value = setting.value { return (value, setting.source) }
        return (Reply.defaultSender(), "default")
    }

    static func identity(flag: String?) throws -> String { try setting(flag: flag).value }
}
