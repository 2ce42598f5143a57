import Foundation
import TimelineConfig

/// The config file of this process (read once) and the precedence resolver over it.
enum UserConfig {
    private static let loaded: Result<ConfigFile, ConfigFileError> = {
        let path = ConfigFile.defaultPath(environment: ProcessInfo.processInfo.environment)
        let loaded = Result { () throws(ConfigFileError) in try ConfigFile.load(path: path) }
        if case .success(let file) = loaded { file.warnings.forEach { standardError("warning: \($0)") } }
        return loaded
    }()

    /// The file's settings; an invalid file is a `ConfigFileError` naming the line, the key and the fix.
    static func file() throws(ConfigFileError) -> ConfigFile {
        try loaded.get()
    }

    /// Flag > environment > file > default, over this process's environment and file.
    static func resolver() throws -> Resolver {
        Resolver(base: SettingResolver(environment: ProcessInfo.processInfo.environment, file: try file()))
    }

    /// `SettingResolver` over this process's settings (its errors are `SettingError`s).
    struct Resolver {
        let base: SettingResolver
        func resolve(_ key: String, flag: String?, flagName: String, environmentNames: [String] = [],
                     fallback: String? = nil) throws -> Setting {
            try base.resolve(key, flag: flag, flagName: flagName, environmentNames: environmentNames, fallback: fallback)
        }
    }

    /// `~/x` → `$HOME/x` (paths in the config file may start with `~`).
    static func expandingTilde(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + path.dropFirst()
    }
}
