import Foundation

/// `~/.aws/credentials` and `~/.aws/config` (or the files `AWS_SHARED_CREDENTIALS_FILE` and
/// `AWS_CONFIG_FILE` name), read once, with one profile's merged settings.
public struct SharedConfigFiles: Sendable {
    public var credentialsPath: String
    public var configPath: String
    public var credentialsFile: INIFile?
    public var configFile: INIFile?
    /// Why a file that exists could not be read (nil when it was read or does not exist).
    public var credentialsUnreadable: String?
    public var configUnreadable: String?

    /// Paths from `environment`, `~` expanded against `HOME` (from `environment`, then the process).
    public init(environment: [String: String]) {
        let home = environment["HOME"] ?? NSHomeDirectory()
        func expand(_ path: String) -> String {
            path.hasPrefix("~/") ? home + path.dropFirst(1) : path
        }
        credentialsPath = expand(environment["AWS_SHARED_CREDENTIALS_FILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "~/.aws/credentials")
        configPath = expand(environment["AWS_CONFIG_FILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "~/.aws/config")
        switch INIFile.read(path: credentialsPath) {
        case .loaded(let file): credentialsFile = file
        case .missing: break
        case .unreadable(let reason): credentialsUnreadable = reason
        }
        switch INIFile.read(path: configPath) {
        case .loaded(let file): configFile = file
        case .missing: break
        case .unreadable(let reason): configUnreadable = reason
        }
    }

    /// `[sso-session NAME]` of the config file.
    public func ssoSession(_ name: String) -> [String: String]? {
        configFile?.sections["sso-session \(name)"]
    }

    /// One line per file that exists but cannot be read, for error messages.
    public var unreadableNotes: [String] {
        var notes: [String] = []
        if let reason = credentialsUnreadable { notes.append("\(credentialsPath) exists but cannot be read (\(reason))") }
        if let reason = configUnreadable { notes.append("\(configPath) exists but cannot be read (\(reason))") }
        return notes
    }

    /// The profile's settings in the credentials file (`[NAME]`).
    public func credentialsSection(_ profile: String) -> [String: String]? {
        credentialsFile?.sections[profile]
    }

    /// The profile's settings in the config file (`[profile NAME]`, or `[default]` for default).
    public func configSection(_ profile: String) -> [String: String]? {
        guard let file = configFile else { return nil }
        if let section = file.sections["profile \(profile)"] { return section }
        return profile == "default" ? file.sections["default"] : nil
    }

    /// A setting of `profile`: the credentials file wins over the config file.
    public func value(_ key: String, profile: String) -> (value: String, path: String)? {
        if let value = credentialsSection(profile)?[key], !value.isEmpty { return (value, credentialsPath) }
        if let value = configSection(profile)?[key], !value.isEmpty { return (value, configPath) }
        return nil
    }

    /// Whether the profile exists in either file.
    public func hasProfile(_ profile: String) -> Bool {
        credentialsSection(profile) != nil || configSection(profile) != nil
    }

    /// True when the profile is set up for IAM Identity Center (SSO).
    public func looksLikeSSO(_ profile: String) -> Bool {
        let keys = Set((configSection(profile) ?? [:]).keys).union((credentialsSection(profile) ?? [:]).keys)
        return keys.contains { $0.hasPrefix("sso_") }
    }
}
