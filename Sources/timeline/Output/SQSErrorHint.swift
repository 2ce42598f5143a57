import SQSClient

/// An SQS error with the hint that fixes it (`SQSError.explanation`), under the name the hooks use.
enum SQSErrorHint {
    static func describe(_ error: SQSError, queueURL: String? = nil) -> String {
        error.explanation(queueURL: queueURL)
    }
}
