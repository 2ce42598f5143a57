import Foundation
import SigV4
import TimelineCore

/// Everything the providers of one chain share: the environment, the AWS files, where STS and the
/// SSO services are, the HTTP transport, the clock and how to ask for an MFA code.
struct CredentialContext {
    var environment: [String: String]
    var files: SharedConfigFiles
    var endpoints: ServiceEndpoints
    /// The region STS calls go to (its regional endpoint).
    var stsRegion: String
    var transport: any HTTPTransport
    var now: @Sendable () -> Date
    var mfaCode: @Sendable (_ profile: String, _ serial: String) throws(CredentialsError) -> String

    func sts() throws(CredentialsError) -> STSClient {
        do {
            let endpoint = try endpoints.endpoint(for: .sts, region: stsRegion)
            return STSClient(endpoint: endpoint.value, region: stsRegion, transport: transport)
        } catch {
            throw CredentialsError(error.message)
        }
    }

    /// `timeline-<unix time>`, the session name when none is configured.
    func defaultSessionName() -> String { "timeline-\(Int(now().timeIntervalSince1970))" }

    /// Keys from `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` (nil when neither is set).
    func environmentKeys(otherwise profile: String) throws(CredentialsError) -> AWSCredentials? {
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

    /// STS `AssumeRoleWithWebIdentity` with the token in `tokenFile` (read at every call).
    func webIdentity(roleARN: String, tokenFile: String, sessionName: String?, origin: String) throws(CredentialsError) -> AWSCredentials {
        guard let data = FileManager.default.contents(atPath: tokenFile) else {
            throw CredentialsError("The web identity token file \(tokenFile) (from \(origin)) cannot be read")
        }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else { throw CredentialsError("The web identity token file \(tokenFile) (from \(origin)) is empty") }
        return try sts().assumeRoleWithWebIdentity(
            roleARN: roleARN, sessionName: sessionName ?? defaultSessionName(), token: token,
            provider: "web identity (\(origin)) → STS AssumeRoleWithWebIdentity")
    }
}

/// The credentials a profile describes, in the order botocore tries them: `role_arn` (with
/// `source_profile`, `credential_source` or `web_identity_token_file`), IAM Identity Center,
/// static keys, `credential_process`.
struct ProfileCredentials {
    var context: CredentialContext

    /// The profile's credentials, or nil when it names no way to get any.
    /// `chain` holds the profiles already on the way here (for the cycle check).
    func fetch(_ profile: String, chain: [String] = []) throws(CredentialsError) -> AWSCredentials? {
        let files = context.files
        func setting(_ key: String) -> String? { files.value(key, profile: profile)?.value }
        if let roleARN = setting("role_arn") {
            return try assumeRole(profile, roleARN: roleARN, chain: chain)
        }
        let usesSSO = setting("sso_session") != nil || setting("sso_start_url") != nil
        if usesSSO, setting("sso_account_id") != nil, setting("sso_role_name") != nil {
            return try sso(profile).fetch()
        }
        if let keys = staticKeys(profile) { return keys }
        if let command = files.value("credential_process", profile: profile) {
            let credentials = try CredentialProcess.run(
                command: command.value, profile: profile, environment: context.environment,
                looksLikeSSO: files.looksLikeSSO(profile),
                source: "credential_process of profile \"\(profile)\" in \(command.path)")
            if let expiration = credentials.expiration, context.now() >= expiration {
                throw CredentialsError("credential_process for profile \"\(profile)\" returned credentials that expired at \(expiration)")
            }
            return credentials
        }
        if usesSSO { _ = try sso(profile) }  // says which sso_* setting is missing
        return nil
    }

    func staticKeys(_ profile: String) -> AWSCredentials? {
        let files = context.files
        guard let keyID = files.value("aws_access_key_id", profile: profile),
              let secret = files.value("aws_secret_access_key", profile: profile) else { return nil }
        return AWSCredentials(
            accessKeyID: keyID.value, secretAccessKey: secret.value,
            sessionToken: files.value("aws_session_token", profile: profile)?.value,
            source: "profile \"\(profile)\" in \(keyID.path)")
    }

    private func assumeRole(_ profile: String, roleARN: String, chain: [String]) throws(CredentialsError) -> AWSCredentials {
        let files = context.files
        func setting(_ key: String) -> String? { files.value(key, profile: profile)?.value }
        let path = chain + [profile]
        let sessionName = setting("role_session_name")
        if setting("source_profile") == nil, setting("credential_source") == nil,
           let tokenFile = setting("web_identity_token_file") {
            return try context.webIdentity(
                roleARN: roleARN, tokenFile: tokenFile, sessionName: sessionName, origin: "web_identity_token_file of profile \"\(profile)\"")
        }
        let source: AWSCredentials
        let via: String
        if let sourceProfile = setting("source_profile") {
            guard setting("credential_source") == nil else {
                throw CredentialsError("Profile \"\(profile)\" sets both source_profile and credential_source: keep one")
            }
            if sourceProfile == profile, let keys = staticKeys(profile) {
                source = keys  // a profile may be its own source when it has keys
            } else if path.contains(sourceProfile) {
                throw CredentialsError("The role chain loops: \((path + [sourceProfile]).map { "\"\($0)\"" }.joined(separator: " → ")) (source_profile)")
            } else {
                guard files.hasProfile(sourceProfile) else {
                    throw CredentialsError("Profile \"\(profile)\" has source_profile = \(sourceProfile), but there is no profile \"\(sourceProfile)\" in \(files.configPath) or \(files.credentialsPath)")
                }
                guard let found = try fetch(sourceProfile, chain: path) else {
                    throw CredentialsError("Profile \"\(sourceProfile)\" (source_profile of \"\(profile)\") has no credentials: no keys, role_arn, sso_* or credential_process")
                }
                source = found
            }
            via = "source_profile \"\(sourceProfile)\""
        } else if let credentialSource = setting("credential_source") {
            source = try credentialSourceKeys(credentialSource, profile: profile)
            via = "credential_source \(credentialSource)"
        } else {
            throw CredentialsError("Profile \"\(profile)\" has role_arn but no source_profile, credential_source or web_identity_token_file to assume it with")
        }
        var options = STSClient.AssumeRoleOptions(sessionName: sessionName ?? context.defaultSessionName())
        options.externalID = setting("external_id")
        if let text = setting("duration_seconds") {
            guard let seconds = Int(text), (900...43200).contains(seconds) else {
                throw CredentialsError("duration_seconds of profile \"\(profile)\" must be a whole number of seconds from 900 to 43200, not \(DisplayText.sanitize(text))")
            }
            options.durationSeconds = seconds
        }
        if let serial = setting("mfa_serial") {
            options.mfaSerial = serial
            options.mfaCode = try context.mfaCode(profile, serial)
        }
        return try context.sts().assumeRole(
            roleARN: roleARN, options: options, source: source,
            provider: "assume role of profile \"\(profile)\" (\(via): \(source.source))")
    }

    private func credentialSourceKeys(_ name: String, profile: String) throws(CredentialsError) -> AWSCredentials {
        switch name {
        case "Environment":
            guard let keys = try context.environmentKeys(otherwise: profile) else {
                throw CredentialsError("Profile \"\(profile)\" has credential_source = Environment, but AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY are not set")
            }
            return keys
        case "Ec2InstanceMetadata":
            return try InstanceMetadataCredentials(environment: context.environment, transport: context.transport).fetch()
        case "EcsContainer":
            guard ContainerCredentials.isConfigured(context.environment) else {
                throw CredentialsError("Profile \"\(profile)\" has credential_source = EcsContainer, but AWS_CONTAINER_CREDENTIALS_RELATIVE_URI / _FULL_URI are not set")
            }
            return try ContainerCredentials(environment: context.environment, transport: context.transport).fetch()
        default:
            throw CredentialsError("credential_source of profile \"\(profile)\" is \(DisplayText.sanitize(name)): use Environment, Ec2InstanceMetadata or EcsContainer")
        }
    }

    private func sso(_ profile: String) throws(CredentialsError) -> SSOCredentials {
        let files = context.files
        func setting(_ key: String) -> String? { files.value(key, profile: profile)?.value }
        guard let account = setting("sso_account_id"), let role = setting("sso_role_name") else {
            throw CredentialsError("Profile \"\(profile)\" uses IAM Identity Center but lacks sso_account_id or sso_role_name: run `aws configure sso --profile \(profile)`")
        }
        let startURL: String
        let region: String
        let sessionName = setting("sso_session")
        if let sessionName {
            guard let session = files.ssoSession(sessionName) else {
                throw CredentialsError("Profile \"\(profile)\" names sso_session \(sessionName), but \(files.configPath) has no [sso-session \(sessionName)] section")
            }
            guard let url = session["sso_start_url"], let sessionRegion = session["sso_region"] else {
                throw CredentialsError("[sso-session \(sessionName)] in \(files.configPath) lacks sso_start_url or sso_region")
            }
            startURL = url
            region = sessionRegion
        } else {
            guard let url = setting("sso_start_url"), let profileRegion = setting("sso_region") else {
                throw CredentialsError("Profile \"\(profile)\" has sso_start_url but no sso_region")
            }
            startURL = url
            region = profileRegion
        }
        let home = context.environment["HOME"] ?? NSHomeDirectory()
        return SSOCredentials(
            profile: profile, accountID: account, roleName: role, startURL: startURL, region: region,
            sessionName: sessionName, cacheDirectory: "\(home)/.aws/sso/cache", endpoints: context.endpoints,
            transport: context.transport, now: context.now)
    }
}

/// Asks for an MFA code on the controlling terminal (`/dev/tty`), never on stdin/stdout.
public enum TerminalMFAPrompt {
    private static let blocked = Locked<String?>(nil)

    /// While set (e.g. while a full-screen UI owns the terminal), asking fails with `reason` instead.
    public static func block(_ reason: String?) { blocked.withValue { $0 = reason } }

    /// Prompts on `terminal` and reads one line: six digits.
    public static func ask(profile: String, serial: String, terminal: String = "/dev/tty") throws(CredentialsError) -> String {
        if let reason = blocked.current {
            throw CredentialsError("Profile \"\(profile)\" needs a new MFA code (mfa_serial \(serial)), which cannot be asked now: \(reason)")
        }
        let descriptor = open(terminal, O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            throw CredentialsError("Profile \"\(profile)\" needs an MFA code (mfa_serial \(serial)) and there is no terminal to ask on: run timeline from a terminal, or use a profile without mfa_serial")
        }
        defer { close(descriptor) }
        let prompt = "Enter MFA code for \(DisplayText.sanitize(serial)): "
        _ = prompt.withCString { write(descriptor, $0, strlen($0)) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1, byte != 0x0A, line.count < 64 { line.append(byte) }
        let code = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard code.count == 6, code.allSatisfy(\.isNumber) else {
            throw CredentialsError("The MFA code for profile \"\(profile)\" must be 6 digits")
        }
        return code
    }
}
