import SQSClient

/// Human-readable reasons for errors that retrying cannot fix, with how to fix them.
public enum StopReason {
    /// Why polling stopped after `error`, and what to do about it.
    public static func explain(_ error: SQSError, queueURL: String) -> String {
        switch error.kind {
        case .auth:
            return "AWS refused the credentials (\(error.code)): \(error.message). Check AWS_ACCESS_KEY_ID / "
                + "AWS_SECRET_ACCESS_KEY or AWS_PROFILE; for SSO profiles run `aws sso login`; "
                + "the viewer needs sqs:ReceiveMessage and sqs:DeleteMessage on the queue"
        case .queueMissing:
            return "queue \(queueURL) does not exist (\(error.code)). Check the queue URL and the region"
        default:
            return "\(error.description) from \(queueURL)"
        }
    }
}
