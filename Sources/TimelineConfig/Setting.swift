/// A setting's effective value and where it came from (`--theme`, `TIMELINE_THEME`, `config.toml:4`, `default`).
public struct Setting: Sendable, Equatable {
    public var value: String?
    public var source: String

    public init(_ value: String?, from source: String) {
        self.value = value
        self.source = source
    }
}

/// Precedence, in one place: flag > environment > config file > default.
public struct SettingResolver: Sendable {
    public var environment: [String: String]
    public var file: ConfigFile

    public init(environment: [String: String], file: ConfigFile) {
        self.environment = environment
        self.file = file
    }

    /// The first of: `flag` (named `flagName`), the first non-empty `environmentNames`, the file's `key`,
    /// `fallback` (source `default`, or "not set" when nil). An environment value is checked like the
    /// file's (the file was checked when loaded; flags by their command).
    public func resolve(_ key: String, flag: String?, flagName: String, environmentNames: [String] = [],
                        fallback: String? = nil) throws(SettingError) -> Setting {
        if let flag, !flag.isEmpty { return Setting(flag, from: flagName) }
        for name in environmentNames {
            guard let value = environment[name], !value.isEmpty else { continue }
            if let definition = ConfigKey.named(key), let problem = definition.check(value) {
                throw SettingError(description: "\(name)=\(value) \(problem): use \(definition.expects), or unset it")
            }
            return Setting(value, from: name)
        }
        if let value = file.string(key) { return Setting(value, from: fileSource(key)) }
        return Setting(fallback, from: fallback == nil ? "not set" : "default")
    }

    /// `config.toml` (with the path) as a source name for `key`.
    public func fileSource(_ key: String) -> String { "config file \(file.path)" }
}

/// A setting's value from the environment is not acceptable; the text says which variable and the fix.
public struct SettingError: Error, Sendable, CustomStringConvertible {
    public var description: String
}
