import Testing
import TimelineCore

@Suite struct SNSEnvelopeTests {
    @Test func unwrapsANotification() throws {
        let body = #"{"Type":"Notification","MessageId":"m-1","TopicArn":"arn:aws:sns:us-east-1:1:t","Message":"{\"id\":\"e\"}","Timestamp":"2026-01-01T00:00:00Z"}"#
        let envelope = try #require(SNSEnvelope.unwrap(Array(body.utf8)))
        #expect(envelope.message == #"{"id":"e"}"# && envelope.messageID == "m-1" && envelope.topicARN == "arn:aws:sns:us-east-1:1:t")
    }

    @Test func rawEventsAndLookalikesAreNotEnvelopes() {
        let cases = [
            #"{"id":"e","agent_id":"a","task_id":"t","title":"Notification","status":"info","timestamp":"2026-01-01T00:00:00Z"}"#,
            #"{"Type":"Notification","MessageId":"m","TopicArn":"t"}"#,                      // no Message
            #"{"Type":"SubscriptionConfirmation","MessageId":"m","TopicArn":"t","Message":"x"}"#,
            #"{"Type":"Notification","MessageId":"m","TopicArn":"t","Message":{"id":"e"}}"#,  // Message not a string
            #"{"Type":"Notification","Type":"Notification","MessageId":"m","TopicArn":"t","Message":"x"}"#,  // duplicate key
            #"["Notification"]"#, "", "\"Notification\"",
        ]
        for text in cases { #expect(SNSEnvelope.unwrap(Array(text.utf8)) == nil, "\(text)") }
        #expect(SNSEnvelope.unwrap([0xFF] + Array(#""Notification""#.utf8)) == nil)
    }
}
