import Foundation

/// Minimal `--db` resolution for `timeline tui` until the shared store options land:
/// `--db`, else `$TIMELINE_DB`, else `$XDG_DATA_HOME/timeline/timeline.db` (`~/.local/share` by default).
enum TUIDatabasePath {
    static func resolve(_ flag: String?) throws -> String {
        let env = ProcessInfo.processInfo.environment
        if let flag, !flag.isEmpty { return flag }
        if let fromEnv = env["TIMELINE_DB"], !fromEnv.isEmpty { return fromEnv }
        let dataHome = env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() + "/.local/share")
        let directory = dataHome + "/timeline"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        return directory + "/timeline.db"
    }
}
