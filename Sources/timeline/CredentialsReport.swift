import Foundation
import SQSClient
import TimelineCore

/// What `doctor` says about credentials beyond the provider: who they act as and when they expire.
/// Never a secret.
enum CredentialsReport {
    /// The role or account: from the provider when it said, else STS `GetCallerIdentity`.
    static func identity(of credentials: AWSCredentials, configuration: SQSConfiguration) -> String {
        if let identity = credentials.identity { return DisplayText.sanitize(identity) }
        guard let sts = try? configuration.endpoints.endpoint(for: .sts, region: configuration.region.value) else {
            return "unknown (the STS endpoint setting is invalid)"
        }
        // A local SQS server with no STS override: asking real AWS would say nothing about it.
        if ServiceEndpoints.isLocal(configuration.endpoint.value), !ServiceEndpoints.isLocal(sts.value) {
            return "not asked (local endpoint; set AWS_ENDPOINT_URL_STS to ask its STS)"
        }
        do {
            let client = STSClient(endpoint: sts.value, region: configuration.region.value)
            return "\(try client.callerARN(credentials))  (STS GetCallerIdentity at \(sts.value.absoluteString))"
        } catch {
            return "unknown (\(DisplayText.sanitize(error.message)))"
        }
    }

    /// This viewer's SQS `SenderId` (STS `GetCallerIdentity` `UserId`): what agents put in
    /// `TIMELINE_REPLY_SENDERS` to accept its replies.
    static func senderID(of credentials: AWSCredentials, configuration: SQSConfiguration) -> String {
        guard let sts = try? configuration.endpoints.endpoint(for: .sts, region: configuration.region.value) else {
            return "unknown (the STS endpoint setting is invalid)"
        }
        if ServiceEndpoints.isLocal(configuration.endpoint.value), !ServiceEndpoints.isLocal(sts.value) {
            return "not asked (local endpoint; set AWS_ENDPOINT_URL_STS to ask its STS)"
        }
        do {
            let identity = try STSClient(endpoint: sts.value, region: configuration.region.value).callerIdentity(credentials)
            guard let userID = identity.userID else { return "unknown (STS GetCallerIdentity answer has no UserId)" }
            return "\(userID)  (agents accept this viewer's replies with TIMELINE_REPLY_SENDERS=\(userID))"
        } catch {
            return "unknown (\(DisplayText.sanitize(error.message)))"
        }
    }

    /// `never (long-term keys)` or `2026-11-23T21:04:37Z (in 59 min)`.
    static func expiry(of credentials: AWSCredentials, now: Date = Date()) -> String {
        guard let expiration = credentials.expiration else {
            return credentials.sessionToken == nil ? "never (long-term keys)" : "not known (temporary keys given without an expiry time)"
        }
        let formatter = ISO8601DateFormatter()
        let left = expiration.timeIntervalSince(now)
        let relative: String
        if left <= 0 {
            relative = "expired"
        } else if left < 3600 {
            relative = "in \(Int(left / 60)) min"
        } else {
            relative = String(format: "in %.1f h", left / 3600)
        }
        return "\(formatter.string(from: expiration)) (\(relative); refreshed automatically before then)"
    }
}
