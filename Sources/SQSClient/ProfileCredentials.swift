import Foundation
import SigV4

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
                throw CredentialsError.credentialProcess(profile: profile, .expired(at: expiration))
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
                throw CredentialsError.profile(profile, .sourceProfileAndCredentialSource)
            }
            if sourceProfile == profile, let keys = staticKeys(profile) {
                source = keys  // a profile may be its own source when it has keys
            } else if path.contains(sourceProfile) {
                throw CredentialsError.profile(profile, .roleChainLoops(path + [sourceProfile]))
            } else {
                guard files.hasProfile(sourceProfile) else {
                    throw CredentialsError.profile(profile, .sourceProfileMissing(
                        sourceProfile, configPath: files.configPath, credentialsPath: files.credentialsPath))
                }
                guard let found = try fetch(sourceProfile, chain: path) else {
                    throw CredentialsError.profile(profile, .sourceProfileHasNoCredentials(sourceProfile))
                }
                source = found
            }
            via = "source_profile \"\(sourceProfile)\""
        } else if let credentialSource = setting("credential_source") {
            source = try credentialSourceKeys(credentialSource, profile: profile)
            via = "credential_source \(credentialSource)"
        } else {
            throw CredentialsError.profile(profile, .roleWithoutSource)
        }
        var options = STSClient.AssumeRoleOptions(sessionName: sessionName ?? context.defaultSessionName())
        options.externalID = setting("external_id")
        if let text = setting("duration_seconds") {
            guard let seconds = Int(text), (900...43200).contains(seconds) else {
                throw CredentialsError.profile(profile, .durationSecondsInvalid(text))
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
                throw CredentialsError.profile(profile, .credentialSourceEnvironmentUnset)
            }
            return keys
        case "Ec2InstanceMetadata":
            return try InstanceMetadataCredentials(environment: context.environment, transport: context.transport).fetch()
        case "EcsContainer":
            guard ContainerCredentials.isConfigured(context.environment) else {
                throw CredentialsError.profile(profile, .credentialSourceContainerUnset)
            }
            return try ContainerCredentials(environment: context.environment, transport: context.transport).fetch()
        default:
            throw CredentialsError.profile(profile, .credentialSourceUnknown(name))
        }
    }

    private func sso(_ profile: String) throws(CredentialsError) -> SSOCredentials {
        let files = context.files
        func setting(_ key: String) -> String? { files.value(key, profile: profile)?.value }
        guard let account = setting("sso_account_id"), let role = setting("sso_role_name") else {
            throw CredentialsError.profile(profile, .ssoAccountOrRoleMissing)
        }
        let startURL: String
        let region: String
        let sessionName = setting("sso_session")
        if let sessionName {
            guard let session = files.ssoSession(sessionName) else {
                throw CredentialsError.profile(profile, .ssoSessionMissing(sessionName, configPath: files.configPath))
            }
            guard let url = session["sso_start_url"], let sessionRegion = session["sso_region"] else {
                throw CredentialsError.profile(profile, .ssoSessionIncomplete(sessionName, configPath: files.configPath))
            }
            startURL = url
            region = sessionRegion
        } else {
            guard let url = setting("sso_start_url"), let profileRegion = setting("sso_region") else {
                throw CredentialsError.profile(profile, .ssoRegionMissing)
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
