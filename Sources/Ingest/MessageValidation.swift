import SQSClient
import TimelineCore
import TimelineStore

/// Turns received SQS messages into store items: a valid event, or a rejected message with its reason.
public enum MessageValidation {
    /// One item per message, in order. Never drops a message.
    public static func items(for messages: [SQSMessage]) -> [IngestItem] {
        messages.map { message in
            switch EventParser.parse(Array(message.body.utf8)) {
            case .success(let event):
                return .event(event, messageID: message.messageID)
            case .failure(let rejection):
                return .rejected(rawBody: message.body, messageID: message.messageID, reason: rejection.reason)
            }
        }
    }
}
