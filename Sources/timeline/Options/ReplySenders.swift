import TimelineConfig
import TimelineCore

/// This process's reply sender allowlist (`ReplySendersSetting` over its environment and config file).
enum ReplySenders {
    static func allowlist(environment: [String: String]) throws -> SenderAllowlist? {
        try ReplySendersSetting.allowlist(environment: environment, file: try UserConfig.file())
    }
}
