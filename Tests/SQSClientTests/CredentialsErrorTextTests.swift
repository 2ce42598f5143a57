import Foundation
import SQSClient
import Testing

/// The words of every `CredentialsError` case, once each: the throw sites are tested by their case.
@Suite struct CredentialsErrorTextTests {
    typealias E = CredentialsError
    static let config = "/home/u/.aws/config"
    static let credentials = "/home/u/.aws/credentials"
    static let roleA = "arn:aws:iam::111111111111:role/role-a"
    static let epoch = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01T00:00:00Z

    /// Every case with the text it shows.
    static let table: [(E, String)] = [
        (.notFound(CredentialSearch(
            profile: "work", profileSource: "AWS_PROFILE",
            credentialsFile: .init(path: credentials, state: .missing),
            configFile: .init(path: config, state: .noSection("profile work")),
            instanceMetadata: nil, unreadableNotes: [])),
         """
         No AWS credentials found for profile "work" (from AWS_PROFILE). Looked in:
           - environment variables AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (not set)
           - web identity AWS_ROLE_ARN + AWS_WEB_IDENTITY_TOKEN_FILE (not set)
           - /home/u/.aws/credentials (no such file)
           - /home/u/.aws/config (no [profile work] section)
         Fix: export AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or run `aws configure --profile work` (or `aws configure sso`), or set AWS_PROFILE to a profile that has credentials.
         """),
        (.notFound(CredentialSearch(
            profile: "default", profileSource: "default",
            credentialsFile: .init(path: credentials, state: .unreadable("permission denied")),
            configFile: .init(path: config, state: .sectionWithoutCredentials("default")),
            instanceMetadata: .disabled, unreadableNotes: ["chmod 600 \(credentials)"])),
         """
         No AWS credentials found for profile "default" (from default). Looked in:
           - environment variables AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (not set)
           - web identity AWS_ROLE_ARN + AWS_WEB_IDENTITY_TOKEN_FILE (not set)
           - /home/u/.aws/credentials (exists but cannot be read: permission denied)
           - /home/u/.aws/config ([default] has no keys, role_arn, sso_* or credential_process)
           - container credentials AWS_CONTAINER_CREDENTIALS_RELATIVE_URI / _FULL_URI (not set)
           - EC2 instance metadata (skipped: AWS_EC2_METADATA_DISABLED=true)
         Fix the file permissions (the files must be readable by you): chmod 600 /home/u/.aws/credentials
         """),
        (.notFound(CredentialSearch(
            profile: "default", profileSource: "default",
            credentialsFile: .init(path: credentials, state: .missing), configFile: .init(path: config, state: .missing),
            instanceMetadata: .failed(.instanceMetadata(endpoint: "http://169.254.169.254", .noRole)), unreadableNotes: [])),
         """
         No AWS credentials found for profile "default" (from default). Looked in:
           - environment variables AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (not set)
           - web identity AWS_ROLE_ARN + AWS_WEB_IDENTITY_TOKEN_FILE (not set)
           - /home/u/.aws/credentials (no such file)
           - /home/u/.aws/config (no such file)
           - container credentials AWS_CONTAINER_CREDENTIALS_RELATIVE_URI / _FULL_URI (not set)
           - EC2 instance metadata (The instance metadata service at http://169.254.169.254 names no IAM role: attach an instance profile to the instance)
         Fix: export AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or run `aws configure` (or `aws configure sso`), or set AWS_PROFILE to a profile that has credentials.
         """),
        (.environmentKeyIDWithoutSecret(profile: "p"),
         "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not: export both, or unset AWS_ACCESS_KEY_ID to use profile \"p\"."),
        (.environmentSecretWithoutKeyID(profile: "p"),
         "AWS_SECRET_ACCESS_KEY is set but AWS_ACCESS_KEY_ID is not: export both, or unset AWS_SECRET_ACCESS_KEY to use profile \"p\"."),
        (.webIdentityTokenUnreadable(file: "/t.jwt", origin: "AWS_ROLE_ARN and AWS_WEB_IDENTITY_TOKEN_FILE"),
         "The web identity token file /t.jwt (from AWS_ROLE_ARN and AWS_WEB_IDENTITY_TOKEN_FILE) cannot be read"),
        (.webIdentityTokenEmpty(file: "/t.jwt", origin: "web_identity_token_file of profile \"p\""),
         "The web identity token file /t.jwt (from web_identity_token_file of profile \"p\") is empty"),

        (.profile("p", .sourceProfileAndCredentialSource), "Profile \"p\" sets both source_profile and credential_source: keep one"),
        (.profile("a", .roleChainLoops(["a", "b", "a"])), "The role chain loops: \"a\" → \"b\" → \"a\" (source_profile)"),
        (.profile("p", .sourceProfileMissing("ghost", configPath: config, credentialsPath: credentials)),
         "Profile \"p\" has source_profile = ghost, but there is no profile \"ghost\" in \(config) or \(credentials)"),
        (.profile("p", .sourceProfileHasNoCredentials("base")),
         "Profile \"base\" (source_profile of \"p\") has no credentials: no keys, role_arn, sso_* or credential_process"),
        (.profile("p", .roleWithoutSource),
         "Profile \"p\" has role_arn but no source_profile, credential_source or web_identity_token_file to assume it with"),
        (.profile("p", .durationSecondsInvalid("60\u{1B}[2J")),
         "duration_seconds of profile \"p\" must be a whole number of seconds from 900 to 43200, not 60"),
        (.profile("p", .credentialSourceEnvironmentUnset),
         "Profile \"p\" has credential_source = Environment, but AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY are not set"),
        (.profile("p", .credentialSourceContainerUnset),
         "Profile \"p\" has credential_source = EcsContainer, but AWS_CONTAINER_CREDENTIALS_RELATIVE_URI / _FULL_URI are not set"),
        (.profile("p", .credentialSourceUnknown("Moon")),
         "credential_source of profile \"p\" is Moon: use Environment, Ec2InstanceMetadata or EcsContainer"),
        (.profile("p", .ssoAccountOrRoleMissing),
         "Profile \"p\" uses IAM Identity Center but lacks sso_account_id or sso_role_name: run `aws configure sso --profile p`"),
        (.profile("p", .ssoSessionMissing("corp", configPath: config)),
         "Profile \"p\" names sso_session corp, but \(config) has no [sso-session corp] section"),
        (.profile("p", .ssoSessionIncomplete("corp", configPath: config)),
         "[sso-session corp] in \(config) lacks sso_start_url or sso_region"),
        (.profile("p", .ssoRegionMissing), "Profile \"p\" has sso_start_url but no sso_region"),

        (.credentialProcess(profile: "p", .unsplittable(reason: "unterminated quote")),
         "credential_process for profile \"p\" cannot be split into arguments: unterminated quote (it is run without a shell, with botocore's quoting rules)"),
        (.credentialProcess(profile: "p", .empty), "credential_process for profile \"p\" is empty"),
        (.credentialProcess(profile: "p", .cannotStart(reason: "/no/helper: command not found")),
         "credential_process for profile \"p\" could not start: /no/helper: command not found (run without a shell: use a full path, and no pipes, `;` or `$(…)`)"),
        (.credentialProcess(profile: "p", .timedOut(seconds: 60)),
         "credential_process for profile \"p\" did not finish within 60 s and was killed (with its process group); TIMELINE_CREDENTIAL_PROCESS_TIMEOUT sets the limit"),
        (.credentialProcess(profile: "p", .outputTooLarge(kibibytes: 64)),
         "credential_process for profile \"p\" printed more than 64 KiB and was killed"),
        (.credentialProcess(profile: "p", .interrupted), "credential_process for profile \"p\" was stopped: timeline is shutting down"),
        (.credentialProcess(profile: "p", .failed(status: 3, stderr: "bad\ndone", next: .runYourself(command: "/bin/helper --x"))),
         "credential_process for profile \"p\" failed (exit status 3): bad⏎done\nRun the command yourself to see what it needs: /bin/helper --x"),
        (.credentialProcess(profile: "work", .failed(status: 255, stderr: "", next: .ssoLogin)),
         "credential_process for profile \"work\" failed (exit status 255)\nThe SSO session may have expired: run `aws sso login --profile work` and try again."),
        (.credentialProcess(profile: "p", .notJSON(byteCount: 12)),
         "credential_process for profile \"p\" printed 12 bytes that are not a JSON object (expected {\"Version\": 1, \"AccessKeyId\": …, \"SecretAccessKey\": …})"),
        (.credentialProcess(profile: "p", .versionMissing), "credential_process for profile \"p\" printed JSON without \"Version\": 1"),
        (.credentialProcess(profile: "p", .keysMissing), "credential_process for profile \"p\" printed JSON without AccessKeyId and SecretAccessKey"),
        (.credentialProcess(profile: "p", .expirationInvalid("soon")),
         "credential_process for profile \"p\" printed an Expiration that is not an ISO 8601 time: soon"),
        (.credentialProcess(profile: "p", .expired(at: epoch)),
         "credential_process for profile \"p\" returned credentials that expired at 2000-01-01 00:00:00 +0000"),

        (.mfa(profile: "p", serial: "arn:aws:iam::1:mfa/me", .cannotAskNow("the TUI owns the terminal")),
         "Profile \"p\" needs a new MFA code (mfa_serial arn:aws:iam::1:mfa/me), which cannot be asked now: the TUI owns the terminal"),
        (.mfa(profile: "p", serial: "arn:aws:iam::1:mfa/me", .noTerminal),
         "Profile \"p\" needs an MFA code (mfa_serial arn:aws:iam::1:mfa/me) and there is no terminal to ask on: run timeline from a terminal, or use a profile without mfa_serial"),
        (.mfa(profile: "p", serial: "arn:aws:iam::1:mfa/me", .notSixDigits), "The MFA code for profile \"p\" must be 6 digits"),

        (.sts(.assumeRole(roleARN: roleA), .unreachable(endpoint: "https://sts.eu-west-1.amazonaws.com", reason: "connection refused")),
         "STS at https://sts.eu-west-1.amazonaws.com could not assume role \(roleA): connection refused"),
        (.sts(.assumeRole(roleARN: roleA), .refused(code: "AccessDenied", message: "User is not \u{1B}]0;x\u{07}authorized")),
         "STS could not assume role \(roleA): AccessDenied: User is not authorized"),
        (.sts(.assumeRoleWithWebIdentity(roleARN: roleA), .refused(code: "InvalidIdentityToken", message: "")),
         "STS could not assume role \(roleA) with a web identity token: InvalidIdentityToken"),
        (.sts(.getCallerIdentity, .malformedAnswer(reason: "not XML", status: 200)), "STS answer to GetCallerIdentity is not XML (HTTP 200)"),
        (.sts(.assumeRole(roleARN: roleA), .credentialsMissing),
         "STS AssumeRole(\(roleA)) answer lacks AccessKeyId, SecretAccessKey, SessionToken or Expiration"),
        (.sts(.assumeRoleWithWebIdentity(roleARN: roleA), .expirationInvalid),
         "STS AssumeRoleWithWebIdentity(\(roleA)) answer has an Expiration that is not an ISO 8601 time"),
        (.sts(.getCallerIdentity, .arnMissing), "STS GetCallerIdentity answer has no Arn"),

        (.sso(.noCachedToken(profile: "dev", path: "/c/x.json")),
         "No cached SSO token for profile \"dev\" (looked for /c/x.json): run `aws sso login --profile dev`"),
        (.sso(.cachedTokenMalformed(profile: "dev", path: "/c/x.json")),
         "The cached SSO token /c/x.json is not what `aws sso login` writes (accessToken, expiresAt): run `aws sso login --profile dev`"),
        (.sso(.sessionExpired(profile: "dev", at: epoch)),
         "The SSO session of profile \"dev\" expired at 2000-01-01T00:00:00Z and cannot be refreshed here: run `aws sso login --profile dev`"),
        (.sso(.registrationExpired(profile: "dev", at: epoch)),
         "The SSO client registration of profile \"dev\" expired at 2000-01-01T00:00:00Z: run `aws sso login --profile dev`"),
        (.sso(.refreshFailed(profile: "dev", reason: .sso(.createTokenFailed(summary: "HTTP 400 invalid_grant")))),
         "The SSO session of profile \"dev\" expired and refreshing it failed (SSO-OIDC CreateToken failed: HTTP 400 invalid_grant): run `aws sso login --profile dev`"),
        (.sso(.tokenRefused(profile: "dev", summary: "HTTP 401 UnauthorizedException")),
         "IAM Identity Center refused the cached SSO token of profile \"dev\" (HTTP 401 UnauthorizedException): run `aws sso login --profile dev`"),
        (.sso(.roleCredentialsFailed(role: "Developer", account: "123456789012", summary: "HTTP 500")),
         "IAM Identity Center GetRoleCredentials for role Developer in account 123456789012 failed: HTTP 500"),
        (.sso(.roleCredentialsMissing),
         "IAM Identity Center GetRoleCredentials answer lacks roleCredentials (accessKeyId, secretAccessKey, expiration)"),
        (.sso(.unreachable(call: "CreateToken", host: "oidc.eu-west-1.amazonaws.com", reason: "timed out")),
         "IAM Identity Center CreateToken at oidc.eu-west-1.amazonaws.com did not answer: timed out"),
        (.sso(.createTokenUnencodable), "could not encode the CreateToken request"),
        (.sso(.createTokenFailed(summary: "HTTP 400 invalid_grant")), "SSO-OIDC CreateToken failed: HTTP 400 invalid_grant"),
        (.sso(.createTokenAnswerIncomplete), "SSO-OIDC CreateToken answer lacks accessToken and expiresIn"),
        (.sso(.cacheUnencodable), "could not encode the SSO token cache"),
        (.sso(.cacheUnwritable(path: "/c/x.json", reason: "Permission denied")), "could not write the SSO token cache /c/x.json: Permission denied"),
        (.sso(.cacheUnwritable(path: "/c/x.json", reason: nil)), "could not write the SSO token cache /c/x.json"),

        (.container(.relativeURIInvalid("a b")), "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI is not a URL path: a b"),
        (.container(.fullURIInvalid("::")), "AWS_CONTAINER_CREDENTIALS_FULL_URI is not a URL: ::"),
        (.container(.fullURIInsecure(host: "example.com")),
         "AWS_CONTAINER_CREDENTIALS_FULL_URI must be https, or http on loopback or the ECS/EKS container host (example.com is neither)"),
        (.container(.authorizationTokenFileUnreadable("/none")), "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE /none cannot be read"),
        (.container(.unreachable(url: "http://127.0.0.1:9/creds", reason: "connection refused")),
         "The container credential endpoint http://127.0.0.1:9/creds did not answer: connection refused"),
        (.container(.status(url: "http://127.0.0.1:9/creds", 401, excerpt: "denied")),
         "The container credential endpoint http://127.0.0.1:9/creds answered HTTP 401: denied"),

        (.instanceMetadata(endpoint: "not a url", .endpointInvalid), "AWS_EC2_METADATA_SERVICE_ENDPOINT is not a URL: not a url"),
        (.instanceMetadata(endpoint: "http://169.254.169.254", .unreachable(seconds: 1, reason: "timed out")),
         "The EC2 instance metadata service at http://169.254.169.254 did not answer within 1 s (not on EC2? set AWS_EC2_METADATA_DISABLED=true to skip it): timed out"),
        (.instanceMetadata(endpoint: "http://169.254.169.254", .refused(.sessionToken, status: 403)),
         "The instance metadata service at http://169.254.169.254 refused a session token (HTTP 403; IMDSv2 only)"),
        (.instanceMetadata(endpoint: "http://169.254.169.254", .refused(.roleName, status: 401)),
         "The instance metadata service at http://169.254.169.254 refused the instance's role (HTTP 401; IMDSv2 only)"),
        (.instanceMetadata(endpoint: "http://169.254.169.254", .noRole),
         "The instance metadata service at http://169.254.169.254 names no IAM role: attach an instance profile to the instance"),
        (.instanceMetadata(endpoint: "http://169.254.169.254", .roleCredentialsStatus(role: "web", status: 500)),
         "The instance metadata service at http://169.254.169.254 answered HTTP 500 for the credentials of role web"),

        (.machineAnswer(provider: "EC2 instance metadata (role web)", .notJSON),
         "EC2 instance metadata (role web) answered something that is not a JSON object"),
        (.machineAnswer(provider: "EC2 instance metadata (role web)", .errorCode("Failure", message: "no role")),
         "EC2 instance metadata (role web) answered Code Failure: no role"),
        (.machineAnswer(provider: "EC2 instance metadata (role web)", .keysMissing),
         "EC2 instance metadata (role web) answered without AccessKeyId and SecretAccessKey"),
        (.machineAnswer(provider: "EC2 instance metadata (role web)", .expirationInvalid),
         "EC2 instance metadata (role web) answered an Expiration that is not an ISO 8601 time"),

        (.serviceEndpoint("AWS_ENDPOINT_URL_STS is not a URL: x"), "AWS_ENDPOINT_URL_STS is not a URL: x"),
        (.cryptoLibraryMissing("libcrypto.so.3 cannot be loaded"), "libcrypto.so.3 cannot be loaded"),
    ]

    @Test func everyCaseSaysWhatWentWrong() {
        for (error, text) in Self.table {
            #expect(error.message == text)
            #expect(error.description == text)
        }
    }

    @Test func theTableHoldsEveryCase() {
        let covered = Set(Self.table.map { Self.kind($0.0) })
        #expect(covered == Set(Self.allKinds), "missing: \(Set(Self.allKinds).subtracting(covered).sorted())")
    }

    @Test func eachLineIsSafeForATerminal() {
        let error = CredentialsError.credentialProcess(
            profile: "p\u{1B}[31m", .failed(status: 1, stderr: "a\u{07}b\r\nc", next: .runYourself(command: "x\u{202E}y")))
        #expect(!error.message.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x202E || $0.value == 0x7F })
        #expect(error.message.split(separator: "\n").count == 2)
    }

    /// Every case and sub-case by name; the switch does not compile when a case is added, the table test
    /// fails until the table shows it.
    static let allKinds = [
        "notFound", "environmentKeyIDWithoutSecret", "environmentSecretWithoutKeyID", "webIdentityTokenUnreadable",
        "webIdentityTokenEmpty", "serviceEndpoint", "cryptoLibraryMissing",
        "profile.sourceProfileAndCredentialSource", "profile.roleChainLoops", "profile.sourceProfileMissing",
        "profile.sourceProfileHasNoCredentials", "profile.roleWithoutSource", "profile.durationSecondsInvalid",
        "profile.credentialSourceEnvironmentUnset", "profile.credentialSourceContainerUnset", "profile.credentialSourceUnknown",
        "profile.ssoAccountOrRoleMissing", "profile.ssoSessionMissing", "profile.ssoSessionIncomplete", "profile.ssoRegionMissing",
        "process.unsplittable", "process.empty", "process.cannotStart", "process.timedOut", "process.outputTooLarge",
        "process.interrupted", "process.failed", "process.notJSON", "process.versionMissing", "process.keysMissing",
        "process.expirationInvalid", "process.expired",
        "mfa.cannotAskNow", "mfa.noTerminal", "mfa.notSixDigits",
        "sts.unreachable", "sts.refused", "sts.malformedAnswer", "sts.credentialsMissing", "sts.expirationInvalid", "sts.arnMissing",
        "sso.noCachedToken", "sso.cachedTokenMalformed", "sso.sessionExpired", "sso.registrationExpired", "sso.refreshFailed",
        "sso.tokenRefused", "sso.roleCredentialsFailed", "sso.roleCredentialsMissing", "sso.unreachable",
        "sso.createTokenUnencodable", "sso.createTokenFailed", "sso.createTokenAnswerIncomplete", "sso.cacheUnencodable",
        "sso.cacheUnwritable",
        "container.relativeURIInvalid", "container.fullURIInvalid", "container.fullURIInsecure",
        "container.authorizationTokenFileUnreadable", "container.unreachable", "container.status",
        "imds.endpointInvalid", "imds.unreachable", "imds.refused", "imds.noRole", "imds.roleCredentialsStatus",
        "answer.notJSON", "answer.errorCode", "answer.keysMissing", "answer.expirationInvalid",
    ]

    static func kind(_ error: CredentialsError) -> String {
        switch error {
        case .notFound: "notFound"
        case .environmentKeyIDWithoutSecret: "environmentKeyIDWithoutSecret"
        case .environmentSecretWithoutKeyID: "environmentSecretWithoutKeyID"
        case .webIdentityTokenUnreadable: "webIdentityTokenUnreadable"
        case .webIdentityTokenEmpty: "webIdentityTokenEmpty"
        case .serviceEndpoint: "serviceEndpoint"
        case .cryptoLibraryMissing: "cryptoLibraryMissing"
        case .profile(_, let problem):
            switch problem {
            case .sourceProfileAndCredentialSource: "profile.sourceProfileAndCredentialSource"
            case .roleChainLoops: "profile.roleChainLoops"
            case .sourceProfileMissing: "profile.sourceProfileMissing"
            case .sourceProfileHasNoCredentials: "profile.sourceProfileHasNoCredentials"
            case .roleWithoutSource: "profile.roleWithoutSource"
            case .durationSecondsInvalid: "profile.durationSecondsInvalid"
            case .credentialSourceEnvironmentUnset: "profile.credentialSourceEnvironmentUnset"
            case .credentialSourceContainerUnset: "profile.credentialSourceContainerUnset"
            case .credentialSourceUnknown: "profile.credentialSourceUnknown"
            case .ssoAccountOrRoleMissing: "profile.ssoAccountOrRoleMissing"
            case .ssoSessionMissing: "profile.ssoSessionMissing"
            case .ssoSessionIncomplete: "profile.ssoSessionIncomplete"
            case .ssoRegionMissing: "profile.ssoRegionMissing"
            }
        case .credentialProcess(_, let problem):
            switch problem {
            case .unsplittable: "process.unsplittable"
            case .empty: "process.empty"
            case .cannotStart: "process.cannotStart"
            case .timedOut: "process.timedOut"
            case .outputTooLarge: "process.outputTooLarge"
            case .interrupted: "process.interrupted"
            case .failed: "process.failed"
            case .notJSON: "process.notJSON"
            case .versionMissing: "process.versionMissing"
            case .keysMissing: "process.keysMissing"
            case .expirationInvalid: "process.expirationInvalid"
            case .expired: "process.expired"
            }
        case .mfa(_, _, let problem):
            switch problem {
            case .cannotAskNow: "mfa.cannotAskNow"
            case .noTerminal: "mfa.noTerminal"
            case .notSixDigits: "mfa.notSixDigits"
            }
        case .sts(_, let problem):
            switch problem {
            case .unreachable: "sts.unreachable"
            case .refused: "sts.refused"
            case .malformedAnswer: "sts.malformedAnswer"
            case .credentialsMissing: "sts.credentialsMissing"
            case .expirationInvalid: "sts.expirationInvalid"
            case .arnMissing: "sts.arnMissing"
            }
        case .sso(let problem):
            switch problem {
            case .noCachedToken: "sso.noCachedToken"
            case .cachedTokenMalformed: "sso.cachedTokenMalformed"
            case .sessionExpired: "sso.sessionExpired"
            case .registrationExpired: "sso.registrationExpired"
            case .refreshFailed: "sso.refreshFailed"
            case .tokenRefused: "sso.tokenRefused"
            case .roleCredentialsFailed: "sso.roleCredentialsFailed"
            case .roleCredentialsMissing: "sso.roleCredentialsMissing"
            case .unreachable: "sso.unreachable"
            case .createTokenUnencodable: "sso.createTokenUnencodable"
            case .createTokenFailed: "sso.createTokenFailed"
            case .createTokenAnswerIncomplete: "sso.createTokenAnswerIncomplete"
            case .cacheUnencodable: "sso.cacheUnencodable"
            case .cacheUnwritable: "sso.cacheUnwritable"
            }
        case .container(let problem):
            switch problem {
            case .relativeURIInvalid: "container.relativeURIInvalid"
            case .fullURIInvalid: "container.fullURIInvalid"
            case .fullURIInsecure: "container.fullURIInsecure"
            case .authorizationTokenFileUnreadable: "container.authorizationTokenFileUnreadable"
            case .unreachable: "container.unreachable"
            case .status: "container.status"
            }
        case .instanceMetadata(_, let problem):
            switch problem {
            case .endpointInvalid: "imds.endpointInvalid"
            case .unreachable: "imds.unreachable"
            case .refused: "imds.refused"
            case .noRole: "imds.noRole"
            case .roleCredentialsStatus: "imds.roleCredentialsStatus"
            }
        case .machineAnswer(_, let problem):
            switch problem {
            case .notJSON: "answer.notJSON"
            case .errorCode: "answer.errorCode"
            case .keysMissing: "answer.keysMissing"
            case .expirationInvalid: "answer.expirationInvalid"
            }
        }
    }
}
