import Foundation

extension SQSClient {
    /// Sends one message to a FIFO queue (or, with both ids nil, to any queue); returns its SQS message id.
    /// `messageGroupID` orders messages within a group; `deduplicationID` makes a resend within five
    /// minutes a no-op on the queue's side.
    public func sendMessage(queueURL: String, body: String, messageGroupID: String?,
                            deduplicationID: String?) throws(SQSError) -> String {
        var request: [String: Any] = ["QueueUrl": queueURL, "MessageBody": body]
        if let messageGroupID { request["MessageGroupId"] = messageGroupID }
        if let deduplicationID { request["MessageDeduplicationId"] = deduplicationID }
        let reply = try call("SendMessage", request)
        guard let id = reply["MessageId"] as? String else {
            throw SQSError(kind: .server, code: "MalformedResponse", message: "SendMessage answer has no MessageId")
        }
        return id
    }
}
