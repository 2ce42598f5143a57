import SQSClient
import TimelineCore
import TimelineStore

/// Turns received SQS messages into store items: a valid event, or a rejected message with its reason.
public enum MessageValidation {
    /// One item per message, in order. Never drops a message.
    ///
    /// A message SNS delivered without raw delivery is unwrapped: the event is the envelope's `Message`,
    /// and the item carries SNS's message id (the same in every viewer's queue) instead of the SQS one.
    /// A rejected envelope is kept whole, with the reason its message was refused.
    public static func items(for messages: [SQSMessage]) -> [IngestItem] {
        messages.map { message in
            let bytes = Array(message.body.utf8)
            let delivery = QueueDelivery(sentMicros: message.sentTimestampMillis.map { $0 * 1_000 },
                                         receiveCount: message.receiveCount)
            if let envelope = SNSEnvelope.unwrap(bytes) {
                switch EventParser.parse(Array(envelope.message.utf8)) {
                case .success(var event):
                    event.delivery = delivery
                    return .event(event, messageID: envelope.messageID)
                case .failure(let rejection):
                    return .rejected(rawBytes: bytes, messageID: envelope.messageID,
                                     reason: "SNS message from \(envelope.topicARN): \(rejection.reason)")
                }
            }
            switch EventParser.parse(bytes) {
            case .success(var event):
                event.delivery = delivery
                return .event(event, messageID: message.messageID)
            case .failure(let rejection):
                return .rejected(rawBody: message.body, messageID: message.messageID, reason: rejection.reason)
            }
        }
    }
}
