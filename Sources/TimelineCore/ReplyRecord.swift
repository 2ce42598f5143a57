/// Where a reply goes: the event's `reply_to` queue or an action's webhook.
public enum ReplyDestination: Sendable, Equatable {
    case queue(String)
    case webhook(String)

    /// The URL as stored.
    public var url: String {
        switch self {
        case .queue(let url), .webhook(let url): url
        }
    }

    /// True for an action's webhook.
    public var isWebhook: Bool { if case .webhook = self { true } else { false } }

    /// What the confirmation names: `queue agent-replies`, or the webhook's full URL.
    public var confirmationText: String {
        switch self {
        case .queue(let url): "queue \(AWSNames.queueName(url))"
        case .webhook(let url): url
        }
    }
}

/// A reply as the viewer keeps it: the document, what it answered with, where it went and how that went.
public struct ReplyRecord: Sendable, Equatable {
    /// How sending went.
    public enum Delivery: Sendable, Equatable {
        /// Recorded before sending; still so after a crash mid-send (shown as not sent).
        case sending
        /// Sent: the SQS message id or the webhook's HTTP status.
        case sent(detail: String)
        /// Not sent, with the reason; `R` sends it again with the same reply id.
        case failed(reason: String)
    }

    public var reply: Reply
    /// The label of the action answered (nil for text), as shown: "you answered Deploy".
    public var label: String?
    public var destination: ReplyDestination
    public var delivery: Delivery
    public var updatedMicros: Int64

    public init(reply: Reply, label: String?, destination: ReplyDestination, delivery: Delivery, updatedMicros: Int64) {
        self.reply = reply
        self.label = label
        self.destination = destination
        self.delivery = delivery
        self.updatedMicros = updatedMicros
    }

    /// True once it reached its destination.
    public var isSent: Bool { if case .sent = delivery { true } else { false } }

    /// "Deploy" for an action (its label), the text itself for a text reply.
    public var answerText: String {
        switch reply.answer {
        case .action(let id): label ?? id
        case .text(let text): text
        }
    }
}

/// Where replies are kept (the store), so they survive a restart.
public protocol ReplyKeeping: AnyObject {
    /// Records a reply before it is sent (`delivery` `.sending`), or replaces its delivery on a resend.
    func record(_ record: ReplyRecord) throws
    /// Sets the outcome of a reply.
    func updateDelivery(replyID: String, _ delivery: ReplyRecord.Delivery, atMicros: Int64) throws
    /// One reply by id.
    func reply(id: String) throws -> ReplyRecord?
    /// A task's replies, oldest first.
    func replies(taskID: String) throws -> [ReplyRecord]
    /// The newest reply to each of these events (for "answered" rows).
    func latestReplies(inReplyTo eventIDs: [String]) throws -> [String: ReplyRecord]
}
