import Foundation

/// Parts of an SQS queue URL (`https://sqs.REGION.amazonaws.com/ACCOUNT_ID/NAME`).
public enum QueueURL {
    /// The queue's name: the URL's last path component (the text itself when it is not a URL).
    public static func name(_ url: String) -> String {
        guard let last = URL(string: url)?.lastPathComponent, !last.isEmpty, last != "/" else { return url }
        return last
    }
}
