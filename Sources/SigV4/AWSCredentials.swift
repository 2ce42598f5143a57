import Foundation

/// An AWS access key pair, an optional session token, and where they came from.
/// Printing one never shows the secret or the token.
public struct AWSCredentials: Sendable, Equatable {
    public var accessKeyID: String
    public var secretAccessKey: String
    public var sessionToken: String?
    /// When temporary credentials stop working (nil for long-term keys).
    public var expiration: Date?
    /// Human-readable origin, e.g. `environment variables` or `profile "dev" in ~/.aws/credentials`.
    public var source: String
    /// Who the keys act as when the provider says (a role ARN, an account), for `doctor`; not secret.
    public var identity: String?

    public init(
        accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil,
        expiration: Date? = nil, source: String = "explicit", identity: String? = nil
    ) {
        self.identity = identity
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.expiration = expiration
        self.source = source
    }

    /// The access key id with all but its last 4 characters masked (`****************MPLE`).
    public var maskedAccessKeyID: String {
        let visible = accessKeyID.suffix(4)
        return String(repeating: "*", count: max(0, accessKeyID.count - visible.count)) + visible
    }
}

extension AWSCredentials: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String {
        var text = "AWSCredentials(accessKeyID: \(maskedAccessKeyID), secretAccessKey: ****"
        if sessionToken != nil { text += ", sessionToken: ****" }
        if let expiration { text += ", expiration: \(ISO8601DateFormatter().string(from: expiration))" }
        if let identity { text += ", identity: \(identity)" }
        return text + ", source: \(source))"
    }

    public var debugDescription: String { description }
}

extension AWSCredentials: CustomReflectable {
    /// Keeps `dump()` and `Mirror` from showing the secret.
    public var customMirror: Mirror {
        Mirror(self, children: ["accessKeyID": maskedAccessKeyID, "source": source], displayStyle: .struct)
    }
}
