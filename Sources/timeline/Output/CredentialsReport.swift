import Foundation
import SQSClient
import TimelineCore

/// What `doctor` says about credentials beyond the provider: who they act as and when they expire.
/// Never a secret.
enum CredentialsReport {
    /// Who the credentials act as (the role or account: from the provider when it said, else STS
    /// `GetCallerIdentity`) and this viewer's SQS `SenderId` (the `UserId` of `GetCallerIdentity`: what agents
    /// put in `TIMELINE_REPLY_SENDERS` to accept its replies). At most one STS call.
    static func caller(of credentials: AWSCredentials, configuration: SQSConfiguration) -> (identity: String, senderID: String) {
        let given = credentials.identity.map(DisplayText.sanitize)
        guard let sts = try? configuration.endpoints.endpoint(for: .sts, region: configuration.region.value) else {
            let unknown = "unknown (the STS endpoint setting is invalid)"
            return (given ?? unknown, unknown)
        }
        // A local SQS server with no STS override: asking real AWS would say nothing about it.
        if ServiceEndpoints.isLocal(configuration.endpoint.value), !ServiceEndpoints.isLocal(sts.value) {
            let notAsked = "not asked (local endpoint; set AWS_ENDPOINT_URL_STS to ask its STS)"
            return (given ?? notAsked, notAsked)
        }
        do {
            let caller = try STSClient(endpoint: sts.value, region: configuration.region.value).callerIdentity(credentials)
            let identity = given ?? "\(caller.arn)  (STS GetCallerIdentity at \(sts.value.absoluteString))"
            guard let userID = caller.userID else { return (identity, "unknown (STS GetCallerIdentity answer has no UserId)") }
            return (identity, "\(userID)  (agents accept this viewer's replies with TIMELINE_REPLY_SENDERS=\(userID))")
        } catch {
            let unknown = "unknown (\(DisplayText.sanitize(error.message)))"
            return (given ?? unknown, unknown)
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
