import StrictJSON

/// An SNS notification as SNS delivers it to an SQS queue when raw message delivery is off: a JSON
/// envelope whose `Message` is the event the agent published.
public struct SNSEnvelope: Sendable, Equatable {
    /// The published message (the event JSON), exactly as the agent sent it.
    public var message: String
    /// SNS's id of the published message: the same in every subscribed queue.
    public var messageID: String
    public var topicARN: String

    /// The envelope in `bytes`, or nil when they are not one (then they are handled as a raw event).
    ///
    /// An envelope is a strict JSON object with `"Type": "Notification"` and string `MessageId`,
    /// `TopicArn` and `Message`: an event never carries all of these, so raw events are never mistaken.
    public static func unwrap(_ bytes: [UInt8]) -> SNSEnvelope? {
        // Cheap test first: every envelope names its type; most raw events never mention it.
        guard bytes.count > 2, bytes.count <= maxEnvelopeBytes, contains(bytes, Array("\"Notification\"".utf8)),
              String(validating: bytes, as: UTF8.self) != nil
        else { return nil }
        let document = bytes.withUnsafeBufferPointer { buffer -> JSONDocument? in
            var reader = JSONReader(buffer)
            guard let document = try? reader.readDocument(), reader.firstDuplicate == nil else { return nil }
            return document
        }
        guard case .object(let members)? = document else { return nil }
        func string(_ key: String) -> String? {
            guard case .string(let value)? = members.first(where: { $0.key == key })?.value else { return nil }
            return value
        }
        guard string("Type") == "Notification", let message = string("Message"),
              let messageID = string("MessageId"), let topic = string("TopicArn")
        else { return nil }
        return SNSEnvelope(message: message, messageID: messageID, topicARN: topic)
    }

    /// An envelope escapes its message, so it may be larger than the message limit; SNS itself carries
    /// at most 256 KiB, so twice the SQS limit bounds any real one.
    static let maxEnvelopeBytes = 2 * EventLimits.messageBytes

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        let first = needle[0]
        var i = 0
        while i <= haystack.count - needle.count {
            if haystack[i] == first, haystack[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }
}
