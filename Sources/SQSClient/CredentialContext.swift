import Foundation
import SigV4

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
            throw CredentialsError.serviceEndpoint(error.message)
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
            throw CredentialsError.environmentKeyIDWithoutSecret(profile: profile)
        case (nil, .some):
            throw CredentialsError.environmentSecretWithoutKeyID(profile: profile)
        case (nil, nil):
            return nil
        }
    }

    /// STS `AssumeRoleWithWebIdentity` with the token in `tokenFile` (read at every call).
    func webIdentity(roleARN: String, tokenFile: String, sessionName: String?, origin: String) throws(CredentialsError) -> AWSCredentials {
        guard let data = FileManager.default.contents(atPath: tokenFile) else {
            throw CredentialsError.webIdentityTokenUnreadable(file: tokenFile, origin: origin)
        }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else { throw CredentialsError.webIdentityTokenEmpty(file: tokenFile, origin: origin) }
        return try sts().assumeRoleWithWebIdentity(
            roleARN: roleARN, sessionName: sessionName ?? defaultSessionName(), token: token,
            provider: "web identity (\(origin)) → STS AssumeRoleWithWebIdentity")
    }
}
