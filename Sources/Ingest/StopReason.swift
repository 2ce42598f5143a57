import SQSClient

extension SQSError {
    /// Codes meaning "valid credentials, but not allowed".
    public static let accessDeniedCodes: Set<String> = [
        "AccessDenied", "AccessDeniedException", "KMS.AccessDeniedException",
    ]
}
