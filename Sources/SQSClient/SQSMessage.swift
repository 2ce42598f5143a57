import TimelineCore
/// One message received from SQS.
public struct SQSMessage: Sendable, Equatable {
    public var messageID: String
    /// Needed to delete the message or change its visibility.
    public var receiptHandle: String
    public var body: String
    /// System attributes asked for (`ApproximateReceiveCount`, `SentTimestamp`, ...).
    public var attributes: [String: String]
    public var md5OfBody: String?

    public init(messageID: String, receiptHandle: String, body: String, attributes: [String: String] = [:], md5OfBody: String? = nil) {
        self.messageID = messageID
        self.receiptHandle = receiptHandle
        self.body = body
        self.attributes = attributes
        self.md5OfBody = md5OfBody
    }

    /// `ApproximateReceiveCount` as a number.
    public var receiveCount: Int? { attributes["ApproximateReceiveCount"].flatMap { Int($0) } }
    /// `SentTimestamp` (milliseconds since the epoch) as a number.
    public var sentTimestampMillis: Int64? { attributes["SentTimestamp"].flatMap { Int64($0) } }
}

/// One entry of a batch call (`DeleteMessageBatch`, `SendMessageBatch`, ...).
public struct BatchFailure: Sendable, Equatable {
    public var id: String
    public var code: String
    public var message: String
    /// True when the request was at fault (retrying the same entry will not help).
    public var senderFault: Bool

    /// `code` and `message` come from the network: sanitized here for the terminal.
    public init(id: String, code: String, message: String, senderFault: Bool) {
        self.id = id
        self.code = DisplayText.sanitize(code)
        self.message = DisplayText.sanitize(message)
        self.senderFault = senderFault
    }
}

/// Outcome of a batch call: which entry ids succeeded and which failed (HTTP 200 either way).
public struct BatchResult: Sendable, Equatable {
    public var successful: [String]
    public var failed: [BatchFailure]
    /// For SendMessageBatch: entry id → SQS message id.
    public var messageIDs: [String: String]

    public init(successful: [String] = [], failed: [BatchFailure] = [], messageIDs: [String: String] = [:]) {
        self.successful = successful
        self.failed = failed
        self.messageIDs = messageIDs
    }
}

/// An entry for `deleteMessageBatch`: an id unique within the batch and the receipt handle.
public struct DeleteEntry: Sendable, Equatable {
    public var id: String
    public var receiptHandle: String

    public init(id: String, receiptHandle: String) {
        self.id = id
        self.receiptHandle = receiptHandle
    }
}

/// An entry for `sendMessageBatch`.
public struct SendEntry: Sendable, Equatable {
    public var id: String
    public var body: String
    public var delaySeconds: Int?

    public init(id: String, body: String, delaySeconds: Int? = nil) {
        self.id = id
        self.body = body
        self.delaySeconds = delaySeconds
    }
}
