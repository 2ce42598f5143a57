import Foundation
import SharedRules

/// Credentials errors in words: what went wrong, where it looked and how to fix it. The one place these
/// texts are written. Every line is sanitized (they quote files, helpers and servers), so `message` is
/// safe to print.
extension CredentialsError: CustomStringConvertible {
    /// The whole story, one or more lines.
    public var message: String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { DisplayText.sanitize(String($0)) }.joined(separator: "\n")
    }

    public var description: String { message }

    private var text: String {
        switch self {
        case .notFound(let search):
            return search.text
        case .environmentKeyIDWithoutSecret(let profile):
            return "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not: export both, or unset AWS_ACCESS_KEY_ID to use profile \"\(profile)\"."
        case .environmentSecretWithoutKeyID(let profile):
            return "AWS_SECRET_ACCESS_KEY is set but AWS_ACCESS_KEY_ID is not: export both, or unset AWS_SECRET_ACCESS_KEY to use profile \"\(profile)\"."
        case .webIdentityTokenUnreadable(let file, let origin):
            return "The web identity token file \(file) (from \(origin)) cannot be read"
        case .webIdentityTokenEmpty(let file, let origin):
            return "The web identity token file \(file) (from \(origin)) is empty"
        case .profile(let profile, let problem):
            return problem.text(profile: profile)
        case .credentialProcess(let profile, let problem):
            return problem.text(profile: profile)
        case .mfa(let profile, let serial, let problem):
            return problem.text(profile: profile, serial: serial)
        case .sts(let operation, let problem):
            return problem.text(operation)
        case .sso(let problem):
            return problem.text
        case .container(let problem):
            return problem.text
        case .instanceMetadata(let endpoint, let problem):
            return problem.text(endpoint: endpoint)
        case .machineAnswer(let provider, let problem):
            return problem.text(provider: provider)
        case .serviceEndpoint(let message), .cryptoLibraryMissing(let message):
            return message
        }
    }
}

extension CredentialsError.ProfileProblem {
    func text(profile: String) -> String {
        switch self {
        case .sourceProfileAndCredentialSource:
            "Profile \"\(profile)\" sets both source_profile and credential_source: keep one"
        case .roleChainLoops(let profiles):
            "The role chain loops: \(profiles.map { "\"\($0)\"" }.joined(separator: " → ")) (source_profile)"
        case .sourceProfileMissing(let source, let configPath, let credentialsPath):
            "Profile \"\(profile)\" has source_profile = \(source), but there is no profile \"\(source)\" in \(configPath) or \(credentialsPath)"
        case .sourceProfileHasNoCredentials(let source):
            "Profile \"\(source)\" (source_profile of \"\(profile)\") has no credentials: no keys, role_arn, sso_* or credential_process"
        case .roleWithoutSource:
            "Profile \"\(profile)\" has role_arn but no source_profile, credential_source or web_identity_token_file to assume it with"
        case .durationSecondsInvalid(let value):
            "duration_seconds of profile \"\(profile)\" must be a whole number of seconds from 900 to 43200, not \(DisplayText.sanitize(value))"
        case .credentialSourceEnvironmentUnset:
            "Profile \"\(profile)\" has credential_source = Environment, but AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY are not set"
        case .credentialSourceContainerUnset:
            "Profile \"\(profile)\" has credential_source = EcsContainer, but AWS_CONTAINER_CREDENTIALS_RELATIVE_URI / _FULL_URI are not set"
        case .credentialSourceUnknown(let name):
            "credential_source of profile \"\(profile)\" is \(DisplayText.sanitize(name)): use Environment, Ec2InstanceMetadata or EcsContainer"
        case .ssoAccountOrRoleMissing:
            "Profile \"\(profile)\" uses IAM Identity Center but lacks sso_account_id or sso_role_name: run `aws configure sso --profile \(profile)`"
        case .ssoSessionMissing(let session, let configPath):
            "Profile \"\(profile)\" names sso_session \(session), but \(configPath) has no [sso-session \(session)] section"
        case .ssoSessionIncomplete(let session, let configPath):
            "[sso-session \(session)] in \(configPath) lacks sso_start_url or sso_region"
        case .ssoRegionMissing:
            "Profile \"\(profile)\" has sso_start_url but no sso_region"
        }
    }
}

extension CredentialsError.CredentialProcessProblem {
    func text(profile: String) -> String {
        let helper = "credential_process for profile \"\(profile)\""
        switch self {
        case .unsplittable(let reason):
            return "\(helper) cannot be split into arguments: \(reason) (it is run without a shell, with botocore's quoting rules)"
        case .empty:
            return "\(helper) is empty"
        case .cannotStart(let reason):
            return "\(helper) could not start: \(DisplayText.sanitize(reason)) (run without a shell: use a full path, and no pipes, `;` or `$(…)`)"
        case .timedOut(let seconds):
            return "\(helper) did not finish within \(seconds) s and was killed (with its process group); TIMELINE_CREDENTIAL_PROCESS_TIMEOUT sets the limit"
        case .outputTooLarge(let kibibytes):
            return "\(helper) printed more than \(kibibytes) KiB and was killed"
        case .interrupted:
            return "\(helper) was stopped: timeline is shutting down"
        case .failed(let status, let stderr, let next):
            let said = DisplayText.sanitize(stderr)
            let advice = switch next {
            case .ssoLogin: "The SSO session may have expired: run `aws sso login --profile \(profile)` and try again."
            case .runYourself(let command): "Run the command yourself to see what it needs: \(DisplayText.sanitize(command))"
            }
            return "\(helper) failed (exit status \(status))\(said.isEmpty ? "" : ": \(said)")\n\(advice)"
        case .notJSON(let byteCount):
            return "\(helper) printed \(byteCount) bytes that are not a JSON object (expected {\"Version\": 1, \"AccessKeyId\": …, \"SecretAccessKey\": …})"
        case .versionMissing:
            return "\(helper) printed JSON without \"Version\": 1"
        case .keysMissing:
            return "\(helper) printed JSON without AccessKeyId and SecretAccessKey"
        case .expirationInvalid(let text):
            return "\(helper) printed an Expiration that is not an ISO 8601 time: \(DisplayText.sanitize(text))"
        case .expired(let date):
            return "\(helper) returned credentials that expired at \(date)"
        }
    }
}

extension CredentialsError.MFAProblem {
    func text(profile: String, serial: String) -> String {
        switch self {
        case .cannotAskNow(let reason):
            "Profile \"\(profile)\" needs a new MFA code (mfa_serial \(serial)), which cannot be asked now: \(reason)"
        case .noTerminal:
            "Profile \"\(profile)\" needs an MFA code (mfa_serial \(serial)) and there is no terminal to ask on: run timeline from a terminal, or use a profile without mfa_serial"
        case .notSixDigits:
            "The MFA code for profile \"\(profile)\" must be 6 digits"
        }
    }
}

extension CredentialsError.STSOperation {
    /// The action's name on the wire.
    var action: String {
        switch self {
        case .assumeRole: "AssumeRole"
        case .assumeRoleWithWebIdentity: "AssumeRoleWithWebIdentity"
        case .getCallerIdentity: "GetCallerIdentity"
        }
    }

    /// What the call was for, after "could not".
    var purpose: String {
        switch self {
        case .assumeRole(let role): "assume role \(role)"
        case .assumeRoleWithWebIdentity(let role): "assume role \(role) with a web identity token"
        case .getCallerIdentity: "ask who the credentials are"
        }
    }

    /// The call with its role, as in `AssumeRole(arn:…)`.
    var call: String {
        switch self {
        case .assumeRole(let role), .assumeRoleWithWebIdentity(let role): "\(action)(\(role))"
        case .getCallerIdentity: action
        }
    }
}

extension CredentialsError.STSProblem {
    func text(_ operation: CredentialsError.STSOperation) -> String {
        switch self {
        case .unreachable(let endpoint, let reason):
            "STS at \(endpoint) could not \(operation.purpose): \(DisplayText.sanitize(reason))"
        case .refused(let code, let message):
            "STS could not \(operation.purpose): \(DisplayText.sanitize(code))\(message.isEmpty ? "" : ": \(DisplayText.sanitize(message))")"
        case .malformedAnswer(let reason, let status):
            "STS answer to \(operation.action) is \(reason) (HTTP \(status))"
        case .credentialsMissing:
            "STS \(operation.call) answer lacks AccessKeyId, SecretAccessKey, SessionToken or Expiration"
        case .expirationInvalid:
            "STS \(operation.call) answer has an Expiration that is not an ISO 8601 time"
        case .arnMissing:
            "STS \(operation.action) answer has no Arn"
        }
    }
}

extension CredentialsError.SSOProblem {
    var text: String {
        func login(_ profile: String) -> String { "run `aws sso login --profile \(profile)`" }
        switch self {
        case .noCachedToken(let profile, let path):
            return "No cached SSO token for profile \"\(profile)\" (looked for \(path)): \(login(profile))"
        case .cachedTokenMalformed(let profile, let path):
            return "The cached SSO token \(path) is not what `aws sso login` writes (accessToken, expiresAt): \(login(profile))"
        case .sessionExpired(let profile, let date):
            return "The SSO session of profile \"\(profile)\" expired at \(SSOCredentials.format(date)) and cannot be refreshed here: \(login(profile))"
        case .registrationExpired(let profile, let date):
            return "The SSO client registration of profile \"\(profile)\" expired at \(SSOCredentials.format(date)): \(login(profile))"
        case .refreshFailed(let profile, let reason):
            return "The SSO session of profile \"\(profile)\" expired and refreshing it failed (\(reason.message)): \(login(profile))"
        case .tokenRefused(let profile, let summary):
            return "IAM Identity Center refused the cached SSO token of profile \"\(profile)\" (\(summary)): \(login(profile))"
        case .roleCredentialsFailed(let role, let account, let summary):
            return "IAM Identity Center GetRoleCredentials for role \(role) in account \(account) failed: \(summary)"
        case .roleCredentialsMissing:
            return "IAM Identity Center GetRoleCredentials answer lacks roleCredentials (accessKeyId, secretAccessKey, expiration)"
        case .unreachable(let call, let host, let reason):
            return "IAM Identity Center \(call) at \(host) did not answer: \(DisplayText.sanitize(reason))"
        case .createTokenUnencodable:
            return "could not encode the CreateToken request"
        case .createTokenFailed(let summary):
            return "SSO-OIDC CreateToken failed: \(summary)"
        case .createTokenAnswerIncomplete:
            return "SSO-OIDC CreateToken answer lacks accessToken and expiresIn"
        case .cacheUnencodable:
            return "could not encode the SSO token cache"
        case .cacheUnwritable(let path, let reason):
            return "could not write the SSO token cache \(path)\(reason.map { ": \($0)" } ?? "")"
        }
    }
}

extension CredentialsError.ContainerProblem {
    var text: String {
        switch self {
        case .relativeURIInvalid(let value):
            "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI is not a URL path: \(DisplayText.sanitize(value))"
        case .fullURIInvalid(let value):
            "AWS_CONTAINER_CREDENTIALS_FULL_URI is not a URL: \(DisplayText.sanitize(value))"
        case .fullURIInsecure(let host):
            "AWS_CONTAINER_CREDENTIALS_FULL_URI must be https, or http on loopback or the ECS/EKS container host (\(host) is neither)"
        case .authorizationTokenFileUnreadable(let file):
            "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE \(file) cannot be read"
        case .unreachable(let url, let reason):
            "The container credential endpoint \(url) did not answer: \(DisplayText.sanitize(reason))"
        case .status(let url, let status, let excerpt):
            "The container credential endpoint \(url) answered HTTP \(status): \(DisplayText.sanitize(excerpt))"
        }
    }
}

extension CredentialsError.InstanceMetadataProblem {
    func text(endpoint: String) -> String {
        switch self {
        case .endpointInvalid:
            "AWS_EC2_METADATA_SERVICE_ENDPOINT is not a URL: \(DisplayText.sanitize(endpoint))"
        case .unreachable(let seconds, let reason):
            "The EC2 instance metadata service at \(endpoint) did not answer within \(seconds) s (not on EC2? set AWS_EC2_METADATA_DISABLED=true to skip it): \(DisplayText.sanitize(reason))"
        case .refused(let step, let status):
            "The instance metadata service at \(endpoint) refused \(step == .sessionToken ? "a session token" : "the instance's role") (HTTP \(status); IMDSv2 only)"
        case .noRole:
            "The instance metadata service at \(endpoint) names no IAM role: attach an instance profile to the instance"
        case .roleCredentialsStatus(let role, let status):
            "The instance metadata service at \(endpoint) answered HTTP \(status) for the credentials of role \(DisplayText.sanitize(role))"
        }
    }
}

extension CredentialsError.MachineAnswerProblem {
    func text(provider: String) -> String {
        switch self {
        case .notJSON:
            "\(provider) answered something that is not a JSON object"
        case .errorCode(let code, let message):
            "\(provider) answered Code \(DisplayText.sanitize(code)): \(DisplayText.sanitize(message))"
        case .keysMissing:
            "\(provider) answered without AccessKeyId and SecretAccessKey"
        case .expirationInvalid:
            "\(provider) answered an Expiration that is not an ISO 8601 time"
        }
    }
}

extension CredentialSearch {
    var text: String {
        var lines = [
            "No AWS credentials found for profile \"\(profile)\" (from \(profileSource)). Looked in:",
            "  - environment variables AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (not set)",
            "  - web identity AWS_ROLE_ARN + AWS_WEB_IDENTITY_TOKEN_FILE (not set)",
            "  - " + credentialsFile.text,
            "  - " + configFile.text,
        ]
        if let instanceMetadata {
            lines.append("  - container credentials AWS_CONTAINER_CREDENTIALS_RELATIVE_URI / _FULL_URI (not set)")
            switch instanceMetadata {
            case .disabled: lines.append("  - EC2 instance metadata (skipped: AWS_EC2_METADATA_DISABLED=true)")
            case .failed(let error): lines.append("  - EC2 instance metadata (\(error.message))")
            }
        }
        if !unreadableNotes.isEmpty {
            lines.append("Fix the file permissions (the files must be readable by you): " + unreadableNotes.joined(separator: "; "))
        } else {
            lines.append("Fix: export AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or run `aws configure\(profile == "default" ? "" : " --profile \(profile)")` (or `aws configure sso`), or set AWS_PROFILE to a profile that has credentials.")
        }
        return lines.joined(separator: "\n")
    }
}

extension CredentialSearch.FileLookup {
    var text: String {
        switch state {
        case .unreadable(let reason): "\(path) (exists but cannot be read: \(reason))"
        case .missing: "\(path) (no such file)"
        case .noSection(let section): "\(path) (no [\(section)] section)"
        case .sectionWithoutCredentials(let section): "\(path) ([\(section)] has no keys, role_arn, sso_* or credential_process)"
        }
    }
}
