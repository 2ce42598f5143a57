import Foundation

/// Credentials could not be found or obtained: what went wrong, where, with the data the message needs.
/// No case holds a secret (keys, tokens, a helper's stdout, an MFA code). `CredentialsErrorText` turns
/// each case into the words the user reads (`message`), sanitized for a terminal.
public indirect enum CredentialsError: Error, Sendable, Equatable {
    /// The chain found nothing: where it looked.
    case notFound(CredentialSearch)
    /// `AWS_ACCESS_KEY_ID` is set without `AWS_SECRET_ACCESS_KEY`; `profile` would be used otherwise.
    case environmentKeyIDWithoutSecret(profile: String)
    /// `AWS_SECRET_ACCESS_KEY` is set without `AWS_ACCESS_KEY_ID`.
    case environmentSecretWithoutKeyID(profile: String)
    /// The web identity token `file` (named by `origin`) cannot be read, or is empty.
    case webIdentityTokenUnreadable(file: String, origin: String)
    case webIdentityTokenEmpty(file: String, origin: String)
    /// A profile's settings cannot be used.
    case profile(String, ProfileProblem)
    /// A profile's `credential_process` failed.
    case credentialProcess(profile: String, CredentialProcessProblem)
    /// An MFA code for `profile`'s `mfa_serial` could not be had.
    case mfa(profile: String, serial: String, MFAProblem)
    /// An STS call failed.
    case sts(STSOperation, STSProblem)
    /// IAM Identity Center (SSO, SSO-OIDC) or its token cache failed.
    case sso(SSOProblem)
    /// The container credential endpoint (ECS, EKS Pod Identity) failed.
    case container(ContainerProblem)
    /// The EC2 instance metadata service at `endpoint` failed.
    case instanceMetadata(endpoint: String, InstanceMetadataProblem)
    /// A container endpoint's or IMDS's credential JSON is unusable; `provider` names who answered.
    case machineAnswer(provider: String, MachineAnswerProblem)
    /// A service endpoint (STS, SSO) cannot be worked out: the configuration's own message.
    case serviceEndpoint(String)
    /// libcrypto cannot be loaded, so nothing can be signed.
    case cryptoLibraryMissing(String)

    /// What is wrong with a profile's settings.
    public enum ProfileProblem: Sendable, Equatable {
        case sourceProfileAndCredentialSource
        /// The `source_profile` chain comes back to a profile already on it (in order, the repeat last).
        case roleChainLoops([String])
        case sourceProfileMissing(String, configPath: String, credentialsPath: String)
        case sourceProfileHasNoCredentials(String)
        case roleWithoutSource
        case durationSecondsInvalid(String)
        case credentialSourceEnvironmentUnset
        case credentialSourceContainerUnset
        case credentialSourceUnknown(String)
        case ssoAccountOrRoleMissing
        case ssoSessionMissing(String, configPath: String)
        case ssoSessionIncomplete(String, configPath: String)
        case ssoRegionMissing
    }

    /// What went wrong running `credential_process`.
    public enum CredentialProcessProblem: Sendable, Equatable {
        case unsplittable(reason: String)
        case empty
        case cannotStart(reason: String)
        case timedOut(seconds: Int)
        case outputTooLarge(kibibytes: Int)
        case interrupted
        /// Non-zero exit: its status, the start of its stderr, and what to do next.
        case failed(status: Int32, stderr: String, next: CredentialProcessAdvice)
        case notJSON(byteCount: Int)
        case versionMissing
        case keysMissing
        case expirationInvalid(String)
        case expired(at: Date)
    }

    /// What to do after a failed `credential_process`.
    public enum CredentialProcessAdvice: Sendable, Equatable {
        /// It looks like an SSO helper: log in again.
        case ssoLogin
        /// Run the command by hand to see what it needs.
        case runYourself(command: String)
    }

    /// Why no MFA code could be had.
    public enum MFAProblem: Sendable, Equatable {
        /// Asking is blocked for now (e.g. a full-screen UI owns the terminal), with the reason.
        case cannotAskNow(String)
        case noTerminal
        case notSixDigits
    }

    /// The STS call that failed.
    public enum STSOperation: Sendable, Equatable {
        case assumeRole(roleARN: String)
        case assumeRoleWithWebIdentity(roleARN: String)
        case getCallerIdentity
    }

    /// How an STS call failed.
    public enum STSProblem: Sendable, Equatable {
        case unreachable(endpoint: String, reason: String)
        case refused(code: String, message: String)
        case malformedAnswer(reason: String, status: Int)
        case credentialsMissing
        case expirationInvalid
        case arnMissing
    }

    /// How IAM Identity Center failed.
    public enum SSOProblem: Sendable, Equatable {
        case noCachedToken(profile: String, path: String)
        case cachedTokenMalformed(profile: String, path: String)
        case sessionExpired(profile: String, at: Date)
        case registrationExpired(profile: String, at: Date)
        /// The token needed a refresh and it failed (`reason`, itself a credentials error).
        case refreshFailed(profile: String, reason: CredentialsError)
        /// `summary`: the answer's status, error code and message.
        case tokenRefused(profile: String, summary: String)
        case roleCredentialsFailed(role: String, account: String, summary: String)
        case roleCredentialsMissing
        case unreachable(call: String, host: String, reason: String)
        case createTokenUnencodable
        case createTokenFailed(summary: String)
        case createTokenAnswerIncomplete
        case cacheUnencodable
        /// The cache file could not be written (`reason`: the system's, when known).
        case cacheUnwritable(path: String, reason: String?)
    }

    /// How the container credential endpoint failed.
    public enum ContainerProblem: Sendable, Equatable {
        case relativeURIInvalid(String)
        case fullURIInvalid(String)
        case fullURIInsecure(host: String)
        case authorizationTokenFileUnreadable(String)
        case unreachable(url: String, reason: String)
        /// A status other than 200, with the start of the answer.
        case status(url: String, Int, excerpt: String)
    }

    /// How the instance metadata service failed.
    public enum InstanceMetadataProblem: Sendable, Equatable {
        case endpointInvalid
        case unreachable(seconds: Int, reason: String)
        case refused(InstanceMetadataStep, status: Int)
        case noRole
        case roleCredentialsStatus(role: String, status: Int)
    }

    /// The IMDS requests before the credentials themselves.
    public enum InstanceMetadataStep: Sendable, Equatable {
        case sessionToken
        case roleName
    }

    /// What is wrong with a machine credential answer.
    public enum MachineAnswerProblem: Sendable, Equatable {
        case notJSON
        case errorCode(String, message: String)
        case keysMissing
        case expirationInvalid
    }
}

/// Where the chain looked for a profile's credentials, for `CredentialsError.notFound`.
public struct CredentialSearch: Sendable, Equatable {
    public var profile: String
    /// Where the profile name came from (`--profile`, `AWS_PROFILE`, `default`, a config file).
    public var profileSource: String
    public var credentialsFile: FileLookup
    public var configFile: FileLookup
    /// nil when the search stopped at the profile (it was named but not found); else what IMDS did.
    public var instanceMetadata: InstanceMetadataOutcome?
    /// Files that exist but cannot be read, in the files' own words.
    public var unreadableNotes: [String]

    public init(profile: String, profileSource: String, credentialsFile: FileLookup, configFile: FileLookup,
                instanceMetadata: InstanceMetadataOutcome?, unreadableNotes: [String]) {
        self.profile = profile
        self.profileSource = profileSource
        self.credentialsFile = credentialsFile
        self.configFile = configFile
        self.instanceMetadata = instanceMetadata
        self.unreadableNotes = unreadableNotes
    }

    /// What one AWS file held for the profile.
    public struct FileLookup: Sendable, Equatable {
        public var path: String
        public var state: State
        public init(path: String, state: State) {
            self.path = path
            self.state = state
        }
        public enum State: Sendable, Equatable {
            case unreadable(String)
            case missing
            case noSection(String)
            /// The section exists but names no way to get credentials.
            case sectionWithoutCredentials(String)
        }
    }

    /// Why the instance metadata service gave nothing.
    public enum InstanceMetadataOutcome: Sendable, Equatable {
        case disabled
        case failed(CredentialsError)
    }
}
