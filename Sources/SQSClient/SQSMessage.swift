import SharedRules
import StrictJSON
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

    /// The messages of a ReceiveMessage answer (an empty or blank answer, or one without `Messages`, has
    /// none); an entry without a message id or receipt handle is left out (it could not be deleted). Nil
    /// when the answer is not a well-formed JSON object. Read in one pass, without building a dictionary.
    public static func messages(inReceiveAnswer answer: [UInt8]) -> [SQSMessage]? {
        if answer.allSatisfy({ $0 == 0x20 || $0 == 0x0a || $0 == 0x0d }) { return [] }
        var messages: [SQSMessage] = []
        let wellFormed = JSONReader.walkObject(answer) { reader, key throws(JSONSyntaxError) in
            guard key == "Messages" else { return try reader.skip() }
            messages.removeAll()  // a repeated key: the last one counts
            try reader.elements { reader throws(JSONSyntaxError) in
                var id: String?, handle: String?, body: String?, md5: String?
                var attributes: [String: String] = [:]
                try reader.members { reader, key throws(JSONSyntaxError) in
                    switch key {
                    case "MessageId": id = try reader.text()
                    case "ReceiptHandle": handle = try reader.text()
                    case "Body": body = try reader.text()
                    case "MD5OfBody": md5 = try reader.text()
                    case "Attributes":
                        try reader.members { reader, name throws(JSONSyntaxError) in attributes[name] = try reader.text() }
                    default: try reader.skip()
                    }
                }
                if let id, let handle {
                    messages.append(SQSMessage(messageID: id, receiptHandle: handle, body: body ?? "",
                                               attributes: attributes, md5OfBody: md5))
                }
            }
        }
        return wellFormed ? messages : nil
    }

    /// `ApproximateReceiveCount` as a number.
    public var receiveCount: Int? { attributes["ApproximateReceiveCount"].flatMap { Int($0) } }
    /// `SenderId`: the IAM user id, `role id:session` or account id that sent the message (as SQS saw it).
    public var senderID: String? { attributes["SenderId"].flatMap { $0.isEmpty ? nil : $0 } }
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
