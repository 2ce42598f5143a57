import Foundation

/// The standard AWS credential chain: environment variables, then the profile (`--profile`,
/// `AWS_PROFILE`, else `default`) in the shared credentials and config files, with static keys
/// or `credential_process`. Results are cached; temporary ones are refreshed 5 minutes before
/// they expire. Thread-safe.
public final class CredentialChain: CredentialsProvider, @unchecked Sendable {
    /// Refresh temporary credentials this long before `expiration`.
    public static let refreshMargin: TimeInterval = 5 * 60

    public let environment: [String: String]
    /// The profile used when the environment has no keys.
    public let profile: String
    /// Where the profile name came from (`--profile`, `AWS_PROFILE`, `default`).
    public let profileSource: String
    private let now: @Sendable () -> Date
    private let lock = NSLock()
    private var cached: AWSCredentials?

    /// `profile` overrides `AWS_PROFILE`, which overrides `fileProfile` (a config file's setting, named by
    /// `fileSource`); `now` is the clock used for expiry (tests move it).
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment, profile: String? = nil,
        fileProfile: String? = nil, fileSource: String = "config file",
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.environment = environment
        if let profile, !profile.isEmpty {
            self.profile = profile
            profileSource = "--profile"
        } else if let name = environment["AWS_PROFILE"], !name.isEmpty {
            self.profile = name
            profileSource = "AWS_PROFILE"
        } else if let fileProfile, !fileProfile.isEmpty {
            self.profile = fileProfile
            profileSource = fileSource
        } else {
            self.profile = "default"
            profileSource = "default"
        }
        self.now = now
    }

    public func credentials() throws(CredentialsError) -> AWSCredentials {
        lock.lock()
        defer { lock.unlock() }
        if let cached, !needsRefresh(cached) { return cached }
        let fresh = try resolve()
        cached = fresh
        return fresh
    }

    public func invalidate() {
        lock.withLock { cached = nil }
    }

    func needsRefresh(_ credentials: AWSCredentials) -> Bool {
        guard let expiration = credentials.expiration else { return false }
        return now() >= expiration.addingTimeInterval(-Self.refreshMargin)
    }

    /// Walks the chain once, without the cache.
    public func resolve() throws(CredentialsError) -> AWSCredentials {
        if let fromEnvironment = try environmentCredentials() { return fromEnvironment }
        let files = SharedConfigFiles(environment: environment)
        if let keyID = files.value("aws_access_key_id", profile: profile),
           let secret = files.value("aws_secret_access_key", profile: profile) {
            return AWSCredentials(
                accessKeyID: keyID.value, secretAccessKey: secret.value,
                sessionToken: files.value("aws_session_token", profile: profile)?.value,
                source: "profile \"\(profile)\" in \(keyID.path)")
        }
        if let command = files.value("credential_process", profile: profile) {
            let credentials = try CredentialProcess.run(
                command: command.value, profile: profile, environment: environment,
                looksLikeSSO: files.looksLikeSSO(profile),
                source: "credential_process of profile \"\(profile)\" in \(command.path)")
            if let expiration = credentials.expiration, now() >= expiration {
                throw CredentialsError("credential_process for profile \"\(profile)\" returned credentials that expired at \(expiration)")
            }
            return credentials
        }
        throw CredentialsError(notFoundMessage(files))
    }

    private func environmentCredentials() throws(CredentialsError) -> AWSCredentials? {
        let keyID = environment["AWS_ACCESS_KEY_ID"].flatMap { $0.isEmpty ? nil : $0 }
        let secret = environment["AWS_SECRET_ACCESS_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        switch (keyID, secret) {
        case let (keyID?, secret?):
            let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
            return AWSCredentials(accessKeyID: keyID, secretAccessKey: secret, sessionToken: token, source: "environment variables")
        case (.some, nil):
            throw CredentialsError("AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not: export both, or unset AWS_ACCESS_KEY_ID to use profile \"\(profile)\".")
        case (nil, .some):
            throw CredentialsError("AWS_SECRET_ACCESS_KEY is set but AWS_ACCESS_KEY_ID is not: export both, or unset AWS_SECRET_ACCESS_KEY to use profile \"\(profile)\".")
        case (nil, nil):
            return nil
        }
    }

    private func notFoundMessage(_ files: SharedConfigFiles) -> String {
        func describe(_ path: String, _ file: INIFile?, section: String, found: Bool) -> String {
            guard file != nil else { return "\(path) (no such file)" }
            return found ? "\(path) ([\(section)] has no keys or credential_process)" : "\(path) (no [\(section)] section)"
        }
        let configSection = profile == "default" ? "default" : "profile \(profile)"
        var lines = [
            "No AWS credentials found for profile \"\(profile)\" (from \(profileSource)). Looked in:",
            "  - environment variables AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (not set)",
            "  - " + describe(files.credentialsPath, files.credentialsFile, section: profile, found: files.credentialsSection(profile) != nil),
            "  - " + describe(files.configPath, files.configFile, section: configSection, found: files.configSection(profile) != nil),
            "Fix: export AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or run `aws configure\(profile == "default" ? "" : " --profile \(profile)")`, or set AWS_PROFILE to a profile that has credentials.",
        ]
        if files.looksLikeSSO(profile) {
            lines.append("Profile \"\(profile)\" uses IAM Identity Center (sso_*): add `credential_process = aws configure export-credentials --profile \(profile) --format process` to it, and run `aws sso login --profile \(profile)` when the session expires.")
        } else if files.value("role_arn", profile: profile) != nil {
            lines.append("Profile \"\(profile)\" assumes a role (role_arn), which timeline does not do itself: use `credential_process = aws configure export-credentials --profile \(profile) --format process`.")
        }
        return lines.joined(separator: "\n")
    }

    /// The region named by the profile (config file first, then credentials file), with its file.
    public func profileRegion() -> (region: String, path: String)? {
        let files = SharedConfigFiles(environment: environment)
        if let region = files.configSection(profile)?["region"], !region.isEmpty { return (region, files.configPath) }
        if let region = files.credentialsSection(profile)?["region"], !region.isEmpty { return (region, files.credentialsPath) }
        return nil
    }
}
