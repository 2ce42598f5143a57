import Foundation
import SQSClient
import TestSupport
import Testing

/// `SQSMessage.messages(inReceiveAnswer:)`: a ReceiveMessage answer read in one pass, with the strict
/// JSON grammar, what cannot be deleted left out, and a malformed answer an error of the call.
@Suite struct ReceiveAnswerTests {
    private func read(_ text: String) -> [SQSMessage]? { SQSMessage.messages(inReceiveAnswer: Array(text.utf8)) }

    @Test func readsEveryFieldOfEachMessage() throws {
        let messages = try #require(read(#"""
            {"Messages":[{"MessageId":"m-1","ReceiptHandle":"rh-1","MD5OfBody":"abc",
              "Body":"{\"id\":\"e\u00e9\ud83d\ude80\"}","Attributes":{"SentTimestamp":"1700000000000","ApproximateReceiveCount":3},
              "MessageAttributes":{"k":{"DataType":"String","StringValue":"v"}},"Extra":[1,[2,{"x":null}]],"Flag":true},
             {"MessageId":"m-2","ReceiptHandle":"rh-2","Body":"plain","Attributes":null}]}
            """#))
        #expect(messages.count == 2)
        #expect(messages[0] == SQSMessage(messageID: "m-1", receiptHandle: "rh-1", body: #"{"id":"eé🚀"}"#,
                                          attributes: ["SentTimestamp": "1700000000000", "ApproximateReceiveCount": "3"],
                                          md5OfBody: "abc"))
        #expect(messages[0].receiveCount == 3 && messages[0].sentTimestampMillis == 1_700_000_000_000)
        #expect(messages[1] == SQSMessage(messageID: "m-2", receiptHandle: "rh-2", body: "plain"))
    }

    @Test func noMessagesIsAnEmptyList() {
        for answer in ["", "  \n", "{}", #"{"Messages":[]}"#, #"{"Messages":null}"#, #"{"Other":{"Messages":[1]}}"#] {
            #expect(read(answer) == [], "\(answer)")
        }
    }

    @Test func entriesThatCannotBeDeletedAreLeftOutTheOthersKept() {
        let answer = #"{"Messages":[{"MessageId":"no-handle","Body":"x"},{"ReceiptHandle":"no-id"},7,"s",[],"#
            + #"{"MessageId":"ok","ReceiptHandle":"rh","Body":"kept"}]}"#
        #expect(read(answer)?.map(\.messageID) == ["ok"])
        // A repeated key: the last one counts, as with any JSON object read here.
        #expect(read(#"{"Messages":[{"MessageId":"a","ReceiptHandle":"1"}],"Messages":[{"MessageId":"b","ReceiptHandle":"2"}]}"#)?
            .map(\.messageID) == ["b"])
    }

    @Test(arguments: [#""a""#, "[]", "{", #"{"Messages":[{"MessageId":"m""#, #"{"Messages":[{},]}"#, #"{"a" 1}"#,
                      #"{"Messages":[{"Body":"\x"}]}"#, #"{"Messages":[{"Body":"\ud800"}]}"#, #"{"n":01}"#, #"{} {}"#,
                      "<ReceiveMessageResponse/>"])
    func malformedAnswersAreRefused(_ text: String) {
        #expect(read(text) == nil)
    }

    @Test func invalidUTF8AndDeepNestingAreRefused() {
        let bytes: [UInt8] = Array(#"{"Messages":[{"MessageId":"m","ReceiptHandle":"r","Body":""#.utf8) + [0xC3, 0x28] + Array(#""}]}"#.utf8)
        #expect(SQSMessage.messages(inReceiveAnswer: bytes) == nil)
        let deep = #"{"x":"# + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "}"
        #expect(read(deep) == nil)
        let allowed = #"{"x":"# + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}"
        #expect(read(allowed) == [])
    }

    @Test func aMalformedAnswerIsAServerErrorOfTheCall() {
        let transport = ScriptedTransport { _ throws(TransportError) in ScriptedTransport.ok(#"{"Messages":[{"#) }
        let client = ScriptedTransportTests.client(transport)
        do {
            _ = try client.receiveMessage(queueURL: ScriptedTransportTests.queueURL, waitSeconds: 0)
            Issue.record("a malformed answer was accepted")
        } catch {
            #expect(error.kind == .server && error.code == "MalformedResponse", "\(error)")
            #expect(error.message.contains("ReceiveMessage answer is not a JSON object"), "\(error.message)")
        }
    }
}
