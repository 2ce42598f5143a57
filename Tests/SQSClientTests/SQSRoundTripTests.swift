import TestSupport
import Foundation
import SQSClient
import Testing

@Suite struct SQSRoundTripTests {
    @Test func sendReceiveDelete() throws {
        let client = TestClients.client(try MotoServer.shared)
        let queue = try TestClients.freshQueue(client)
        let body = #"{"id":"1","title":"héllo ✓ \"quoted\" <tag> & more"}"#
        let messageID = try client.sendMessage(queueURL: queue, body: body)
        #expect(!messageID.isEmpty)

        let received = try client.receiveMessage(queueURL: queue, maxMessages: 10, waitSeconds: 5)
        #expect(received.count == 1)
        let message = try #require(received.first)
        #expect(message.messageID == messageID)
        #expect(message.body == body)
        #expect(message.receiveCount == 1)
        #expect(message.sentTimestampMillis != nil)

        let result = try client.deleteMessageBatch(
            queueURL: queue, entries: [DeleteEntry(id: "m0", receiptHandle: message.receiptHandle)])
        #expect(result.successful == ["m0"])
        #expect(result.failed.isEmpty)
        let attributes = try client.getQueueAttributes(
            queueURL: queue, names: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"])
        #expect(attributes["ApproximateNumberOfMessages"] == "0")
        #expect(attributes["ApproximateNumberOfMessagesNotVisible"] == "0")
    }

    @Test func batchSendAndPartialDeleteFailure() throws {
        let client = TestClients.client(try MotoServer.shared)
        let queue = try TestClients.freshQueue(client)
        let sent = try client.sendMessageBatch(queueURL: queue, entries: (0..<3).map { SendEntry(id: "e\($0)", body: "body \($0)") })
        #expect(Set(sent.successful) == ["e0", "e1", "e2"])
        #expect(sent.messageIDs.count == 3)

        var received: [SQSMessage] = []
        for _ in 0..<5 where received.count < 3 {
            received += try client.receiveMessage(queueURL: queue, maxMessages: 10, waitSeconds: 1)
        }
        #expect(Set(received.map(\.body)) == ["body 0", "body 1", "body 2"])
        var entries = received.enumerated().map { DeleteEntry(id: "ok\($0.offset)", receiptHandle: $0.element.receiptHandle) }
        entries.append(DeleteEntry(id: "bogus", receiptHandle: "not-a-receipt-handle"))
        let result = try client.deleteMessageBatch(queueURL: queue, entries: entries)
        #expect(Set(result.successful) == Set(entries.dropLast().map(\.id)))
        #expect(result.failed.map(\.id) == ["bogus"])
        #expect(result.failed.first?.code.isEmpty == false)
    }

    @Test func getQueueURLAndVisibility() throws {
        let client = TestClients.client(try MotoServer.shared)
        let name = "named-\(UUID().uuidString.prefix(8).lowercased())"
        let created = try client.createQueue(name: name)
        #expect(try client.getQueueURL(name: name) == created)

        _ = try client.sendMessage(queueURL: created, body: "again")
        let first = try #require(try client.receiveMessage(queueURL: created, waitSeconds: 2).first)
        try client.changeMessageVisibility(queueURL: created, receiptHandle: first.receiptHandle, visibilityTimeout: 0)
        let second = try #require(try client.receiveMessage(queueURL: created, waitSeconds: 2).first)
        #expect(second.messageID == first.messageID)
        #expect(second.receiveCount == 2)
    }

    @Test func emptyQueueReturnsNoMessages() throws {
        let client = TestClients.client(try MotoServer.shared)
        let queue = try TestClients.freshQueue(client)
        #expect(try client.receiveMessage(queueURL: queue, waitSeconds: 0).isEmpty)
    }
}

@Suite struct ClockSkewTests {
    @Test func clockOffsetIsMeasuredFromTheDateHeader() throws {
        let server = try MotoServer.shared
        let honest = TestClients.client(server)
        #expect(abs(try honest.serverClockOffset()) < 5)
        // A client whose clock is an hour fast sees the server an hour behind.
        let fast = SQSClient(
            endpoint: server.endpoint, region: TestClients.region,
            credentials: StaticCredentialsProvider(TestClients.credentials), clock: { Date().addingTimeInterval(3600) })
        let offset = try fast.serverClockOffset()
        #expect(offset < -3590 && offset > -3610)
    }
}
