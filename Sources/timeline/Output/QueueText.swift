import Foundation
import SQSClient
import TimelineCore

/// How a queue or an endpoint is shown: a URL with any `user:password@` in it as `****@` (credentials
/// are never printed), a queue name with how it is found; safe for a terminal.
enum QueueText {
    static func describe(_ reference: QueueReference) -> String {
        switch reference {
        case .url(let url): masked(url)
        case .name(let name): "\(DisplayText.sanitize(name)) (a name, looked up with GetQueueUrl)"
        }
    }

    /// `text` (a URL) with any `user:password@` replaced by `****@`, sanitized.
    static func masked(_ text: String) -> String {
        guard var parts = URLComponents(string: text), parts.user != nil || parts.password != nil else {
            return DisplayText.sanitize(text)
        }
        parts.user = "****"
        parts.password = nil
        return DisplayText.sanitize(parts.string ?? text)
    }
}
