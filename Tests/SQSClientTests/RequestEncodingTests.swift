import TestSupport
import Foundation
import SQSClient
import Testing

/// Request bodies are JSON written by hand (not JSONSerialization): every character class a message
/// body can hold must reach the server and come back unchanged.
@Suite struct RequestEncodingTests {
    @Test func awkwardBodiesSurviveTheRoundTrip() throws {
        let client = TestClients.client(try MotoServer.shared)
        let queue = try TestClients.freshQueue(client)
        // SQS allows #x9 #xA #xD and #x20 and above; JSON must escape quotes, backslashes and C0 controls.
        let bodies = [
            #"quote " backslash \ slash / both \" end"#,
            "lines\nand\r\ncarriage\tand tab",
            "unicode: héllo 部署 🚀 e\u{301} \u{202E}bidi",
            #"{"nested":"json \"inside\"","n":[1,2]}"#,
            String(repeating: "long ", count: 2_000),
        ]
        let sent = try client.sendMessageBatch(
            queueURL: queue, entries: bodies.enumerated().map { SendEntry(id: "b\($0.offset)", body: $0.element) })
        #expect(sent.successful.count == bodies.count, "failed: \(sent.failed)")
        var received: [String] = []
        for _ in 0..<5 where received.count < bodies.count {
            received += try client.receiveMessage(queueURL: queue, maxMessages: 10, waitSeconds: 1).map(\.body)
        }
        #expect(Set(received) == Set(bodies))
    }
}
