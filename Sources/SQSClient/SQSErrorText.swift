import Foundation

/// SQS errors in words: a few for a status bar (`summary`) and the whole story with the fix
/// (`explanation`). Every part is already sanitized (`SQSError`), so both are safe for a terminal.
extension SQSError {
    /// A few words: what went wrong, without the fix.
    public var summary: String {
        switch kind {
        case .auth where isClockSkewed: "AWS refused the request because of the clock"
        case .auth where Self.accessDeniedCodes.contains(code): "AWS denied access"
        case .auth: "AWS refused the credentials"
        case .queueMissing: "the queue does not exist"
        case .network, .cancelled: transport.map { "\($0.kind.summary)" } ?? code
        case .throttled, .server, .client: code
        }
    }

    /// What went wrong and how to fix it (never a secret); `queueURL` names the queue when known.
    public func explanation(queueURL: String? = nil) -> String {
        switch kind {
        case .auth where isClockSkewed:
            return "AWS refused the request because of the clock: \(description)"
        case .auth where Self.accessDeniedCodes.contains(code):
            return "AWS denied access (\(code)): \(message). The credentials work but are not allowed "
                + "to use the queue: the viewer needs sqs:ReceiveMessage, sqs:DeleteMessage, "
                + "sqs:ChangeMessageVisibility and sqs:GetQueueAttributes on it"
        case .auth:
            return "AWS refused the credentials (\(code)): \(message). Check AWS_ACCESS_KEY_ID / "
                + "AWS_SECRET_ACCESS_KEY or AWS_PROFILE; for SSO profiles run `aws sso login`"
        case .queueMissing:
            return "queue \(queueURL.map(MaskedURL.text) ?? "the queue") does not exist (\(code)). Check the queue URL and the region"
        case .network:
            return "\(description). Is the endpoint reachable? (check --endpoint-url, proxies, the network)"
        case .throttled, .server:
            return "\(description). AWS is busy or failing; try again"
        case .cancelled, .client:
            return description
        }
    }
}

extension TransportError.Kind {
    /// The failure in a few words.
    public var summary: String {
        switch self {
        case .dns: "the endpoint's name does not resolve"
        case .connect: "connection refused"
        case .timeout: "request timed out"
        case .connectionLost: "connection lost"
        case .tls: "TLS handshake failed"
        case .certificate: "certificate not trusted"
        case .invalidURL: "invalid endpoint URL"
        case .responseTooLarge: "answer too large"
        case .refusedAddress: "address not allowed"
        case .cancelled: "cancelled"
        case .other: "network error"
        }
    }
}
