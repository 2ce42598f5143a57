import Foundation
import SigV4
import Synchronization

/// The AWS SDKs' credential chain, in their order:
/// 1. environment keys (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`);
/// 2. web identity from the environment (`AWS_ROLE_ARN` + `AWS_WEB_IDENTITY_TOKEN_FILE`);
/// 3. the profile (`--profile`, `AWS_PROFILE`, else `default`): `role_arn`, IAM Identity Center,
///    static keys, `credential_process` (see `ProfileCredentials`);
/// 4. the container endpoint (`AWS_CONTAINER_CREDENTIALS_RELATIVE_URI` / `_FULL_URI`);
/// 5. EC2 instance metadata (IMDSv2).
///
/// Results are cached. Temporary credentials are refreshed `refreshMargin` before they expire by
/// one caller while the others keep using the still-valid ones (no gap); only when they are within
/// `mandatoryMargin` of expiry (or gone) do callers wait for the refresh. Thread-safe.
public final class CredentialChain: CredentialsProvider, Sendable {
    /// Start refreshing temporary credentials this long before `expiration`.
    public static let refreshMargin: TimeInterval = 5 * 60
    /// Never sign with credentials this close to expiry: wait for new ones.
    public static let mandatoryMargin: TimeInterval = 60

    public let environment: [String: String]
    /// The profile used when the environment has no keys.
    public let profile: String
    /// Where the profile name came from (`--profile`, `AWS_PROFILE`, `default`).
    public let profileSource: String
    /// The region STS calls go to.
    public let stsRegion: String
    private let transport: any HTTPTransport
    private let now: @Sendable () -> Date
    private let mfaCode: @Sendable (String, String) throws(CredentialsError) -> String
    private struct Cache {
        var credentials: AWSCredentials?
        /// After a failed early refresh, the next one waits until then (the keys still work meanwhile).
        var nextEarlyRefresh = Date.distantPast
    }
    private let cache = Mutex(Cache())
    /// Held by the one caller that is resolving new credentials.
    private let refreshing = Mutex(())
    static let earlyRefreshRetry: TimeInterval = 30

    /// `profile` overrides `AWS_PROFILE`, which overrides `fileProfile` (a config file's setting, named by
    /// `fileSource`); `region` is where STS is called (else the profile's region, else us-east-1); `now` is
    /// the clock used for expiry (tests move it); `mfaCode` asks for an MFA code (default: on /dev/tty).
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment, profile: String? = nil,
        fileProfile: String? = nil, fileSource: String = "config file",
        region: String? = nil, transport: any HTTPTransport = CurlTransport(),
        now: @escaping @Sendable () -> Date = { Date() },
        mfaCode: @escaping @Sendable (_ profile: String, _ serial: String) throws(CredentialsError) -> String = { profile, serial throws(CredentialsError) in
            try TerminalMFAPrompt.ask(profile: profile, serial: serial)
        }
    ) {
        self.environment = environment
        (self.profile, profileSource) = Self.selectProfile(
            flag: profile, environment: environment, fileProfile: fileProfile, fileSource: fileSource)
        self.transport = transport
        self.now = now
        self.mfaCode = mfaCode
        if let region, !region.isEmpty {
            stsRegion = region
        } else {
            let files = SharedConfigFiles(environment: environment)
            stsRegion = environment["AWS_REGION"].flatMap { $0.isEmpty ? nil : $0 }
                ?? environment["AWS_DEFAULT_REGION"].flatMap { $0.isEmpty ? nil : $0 }
                ?? Self.profileRegion(files: files, profile: self.profile)?.region ?? "us-east-1"
        }
    }

    /// The profile name and where it came from: the flag, `AWS_PROFILE`, the config file's `profile`
    /// (named `fileSource`), else `default`.
    public static func selectProfile(
        flag: String?, environment: [String: String], fileProfile: String? = nil, fileSource: String = "config file"
    ) -> (name: String, source: String) {
        if let flag, !flag.isEmpty { return (flag, "--profile") }
        if let name = environment["AWS_PROFILE"], !name.isEmpty { return (name, "AWS_PROFILE") }
        if let fileProfile, !fileProfile.isEmpty { return (fileProfile, fileSource) }
        return ("default", "default")
    }

    public func credentials() throws(CredentialsError) -> AWSCredentials {
        let current = cache.withLock { $0.credentials }
        if let current, !needsRefresh(current) { return current }
        if let current, !mustRefresh(current) {
            // Advisory window: one caller refreshes, the others keep signing with what they have.
            guard now() >= cache.withLock({ $0.nextEarlyRefresh }) else { return current }
            let refreshed = refreshing.withLockIfAvailable { _ -> AWSCredentials? in
                guard let fresh = try? resolve() else {
                    cache.withLock { $0.nextEarlyRefresh = now().addingTimeInterval(Self.earlyRefreshRetry) }
                    return nil
                }
                cache.withLock { $0.credentials = fresh }
                return fresh
            }
            return (refreshed ?? nil) ?? current
        }
        return try refreshing.withLock { _ throws(CredentialsError) -> AWSCredentials in
            if let latest = cache.withLock({ $0.credentials }), !needsRefresh(latest) { return latest }
            let fresh = try resolve()
            cache.withLock { $0.credentials = fresh }
            return fresh
        }
    }

    public func invalidate() {
        cache.withLock { $0.credentials = nil }
    }

    func needsRefresh(_ credentials: AWSCredentials) -> Bool {
        guard let expiration = credentials.expiration else { return false }
        return now() >= expiration.addingTimeInterval(-Self.refreshMargin)
    }

    func mustRefresh(_ credentials: AWSCredentials) -> Bool {
        guard let expiration = credentials.expiration else { return false }
        return now() >= expiration.addingTimeInterval(-Self.mandatoryMargin)
    }

    /// Walks the chain once, without the cache.
    public func resolve() throws(CredentialsError) -> AWSCredentials {
        let context = makeContext()
        if let keys = try context.environmentKeys(otherwise: profile) { return keys }
        if let roleARN = nonEmpty("AWS_ROLE_ARN"), let tokenFile = nonEmpty("AWS_WEB_IDENTITY_TOKEN_FILE") {
            return try context.webIdentity(
                roleARN: roleARN, tokenFile: tokenFile, sessionName: nonEmpty("AWS_ROLE_SESSION_NAME"),
                origin: "AWS_ROLE_ARN and AWS_WEB_IDENTITY_TOKEN_FILE")
        }
        let files = context.files
        if profileSource != "default" || files.hasProfile(profile) {
            guard files.hasProfile(profile) else { throw CredentialsError.notFound(search(files, instanceMetadata: nil)) }
            if let found = try ProfileCredentials(context: context).fetch(profile) { return found }
        }
        if ContainerCredentials.isConfigured(environment) {
            return try ContainerCredentials(environment: environment, transport: transport).fetch()
        }
        if InstanceMetadataCredentials.isDisabled(environment) {
            throw CredentialsError.notFound(search(files, instanceMetadata: .disabled))
        }
        do {
            return try InstanceMetadataCredentials(environment: environment, transport: transport).fetch()
        } catch {
            throw CredentialsError.notFound(search(files, instanceMetadata: .failed(error)))
        }
    }

    /// True when resolving asks for an MFA code (`mfa_serial` in the profile or a `source_profile` it
    /// chains through) and no environment credentials come first: callers with a full-screen UI resolve
    /// once before drawing, so the prompt gets the terminal.
    public var asksForMFACode: Bool {
        if nonEmpty("AWS_ACCESS_KEY_ID") != nil || nonEmpty("AWS_ROLE_ARN") != nil { return false }
        let files = SharedConfigFiles(environment: environment)
        var name = profile
        var seen: Set<String> = []
        while seen.insert(name).inserted, files.value("role_arn", profile: name) != nil {
            if files.value("mfa_serial", profile: name) != nil { return true }
            guard let next = files.value("source_profile", profile: name)?.value else { return false }
            name = next
        }
        return false
    }

    private func makeContext() -> CredentialContext {
        let files = SharedConfigFiles(environment: environment)
        return CredentialContext(
            environment: environment, files: files,
            endpoints: ServiceEndpoints(environment: environment, files: files, profile: profile),
            stsRegion: stsRegion, transport: transport, now: now, mfaCode: mfaCode)
    }

    private func nonEmpty(_ name: String) -> String? {
        environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Where the chain looked for `profile`, for the error that says it found nothing.
    private func search(_ files: SharedConfigFiles, instanceMetadata: CredentialSearch.InstanceMetadataOutcome?) -> CredentialSearch {
        func lookup(_ path: String, _ file: INIFile?, unreadable: String?, section: String, found: Bool) -> CredentialSearch.FileLookup {
            if let unreadable { return .init(path: path, state: .unreadable(unreadable)) }
            guard file != nil else { return .init(path: path, state: .missing) }
            return .init(path: path, state: found ? .sectionWithoutCredentials(section) : .noSection(section))
        }
        let configSection = profile == "default" ? "default" : "profile \(profile)"
        return CredentialSearch(
            profile: profile, profileSource: profileSource,
            credentialsFile: lookup(files.credentialsPath, files.credentialsFile, unreadable: files.credentialsUnreadable,
                                    section: profile, found: files.credentialsSection(profile) != nil),
            configFile: lookup(files.configPath, files.configFile, unreadable: files.configUnreadable,
                               section: configSection, found: files.configSection(profile) != nil),
            instanceMetadata: instanceMetadata, unreadableNotes: files.unreadableNotes)
    }

    /// The region named by the profile (config file first, then credentials file), with its file.
    public func profileRegion() -> (region: String, path: String)? {
        Self.profileRegion(files: SharedConfigFiles(environment: environment), profile: profile)
    }

    public static func profileRegion(files: SharedConfigFiles, profile: String) -> (region: String, path: String)? {
        if let region = files.configSection(profile)?["region"], !region.isEmpty { return (region, files.configPath) }
        if let region = files.credentialsSection(profile)?["region"], !region.isEmpty { return (region, files.credentialsPath) }
        return nil
    }
}
