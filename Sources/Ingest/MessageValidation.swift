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
    /// An event claiming a time too far past its arrival is ordered at its arrival (`ClaimedTime`): the
    /// queue's `SentTimestamp`, else `receivedMicros`.
    public static func items(for messages: [SQSMessage],
                             receivedMicros: Int64 = TimeFormat.nowMicros()) -> [IngestItem] {
        messages.map { message in
            let bytes = Array(message.body.utf8)
            let sent = message.sentTimestampMillis.map { $0 * 1_000 }
            let delivery = QueueDelivery(sentMicros: sent, receiveCount: message.receiveCount)
            func arrived(_ event: Event) -> Event {
                var event = event
                event.delivery = delivery
                event.timestampMicros = ClaimedTime.orderingMicros(claimed: event.timestampMicros,
                                                                   arrivedMicros: sent ?? receivedMicros, status: event.status)
                return event
            }
            if let envelope = SNSEnvelope.unwrap(bytes) {
                switch EventParser.parse(Array(envelope.message.utf8)) {
                case .success(let event):
                    return .event(arrived(event), messageID: envelope.messageID)
                case .failure(let rejection):
                    return .rejected(rawBytes: bytes, messageID: envelope.messageID,
                                     reason: "SNS message from \(envelope.topicARN): \(rejection.reason)")
                }
            }
            switch EventParser.parse(bytes) {
            case .success(let event):
                return .event(arrived(event), messageID: message.messageID)
            case .failure(let rejection):
                return .rejected(rawBody: message.body, messageID: message.messageID, reason: rejection.reason)
            }
        }
    }
}
