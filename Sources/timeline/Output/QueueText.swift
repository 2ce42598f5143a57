import SQSClient
import TimelineCore

/// How a queue is shown: its URL as `MaskedURL` shows it, a name with how it is found; safe for a terminal.
enum QueueText {
    static func describe(_ reference: QueueReference) -> String {
        switch reference {
        case .url(let url): MaskedURL.text(url)
        case .name(let name): "\(DisplayText.sanitize(name)) (a name, looked up with GetQueueUrl)"
        }
    }
}
