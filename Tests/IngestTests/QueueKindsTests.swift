import Foundation
import Ingest
import SQSClient
import TestSupport
import Testing
import TimelineCore
import TimelineStore

/// Forwards to moto; the first `lose` ReceiveMessage answers are thrown away after the server sent them
/// (a connection lost mid-answer), and every ReceiveMessage request's attempt id is recorded.
private final class LosingTransport: HTTPTransport, @unchecked Sendable {
    let inner = CurlTransport()
    /// Each ReceiveMessage request's ReceiveRequestAttemptId (nil when it had none).
    let attemptIDs = Locked<[String?]>([])
    let toLose = Locked(0)
    init(lose: Int) { toLose.withValue { $0 = lose } }

    func send(_ request: HTTPRequest, timeout: TimeInterval, cancel: CancellationToken?) throws(TransportError) -> HTTPResponse {
        let response = try inner.send(request, timeout: timeout, cancel: cancel)
        guard request.headers.contains(where: { $0.value == "AmazonSQS.ReceiveMessage" }) else { return response }
        let body = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any] ?? [:]
        let attemptID = body["ReceiveRequestAttemptId"] as? String
        attemptIDs.withValue { $0.append(attemptID) }
        let lose = toLose.withValue { count -> Bool in
            guard count > 0 else { return false }
            count -= 1
            return true
        }
        if lose { throw TransportError(kind: .connectionLost, message: "connection lost (test)") }
        return response
    }
}

@Suite(.serialized) struct QueueKindsTests {
    /// A FIFO receive whose answer is lost is retried with the same ReceiveRequestAttemptId; the next
    /// fresh receive gets a new one. Events still all arrive, in order per task.
    @Test func fifoRetriesReuseTheReceiveAttemptID() throws {
        let server = try MotoServer.shared
        let setupClient = TestClients.client(server)
        let queue = try setupClient.createQueue(
            name: "fifo-\(UUID().uuidString.prefix(8).lowercased()).fifo",
            attributes: ["FifoQueue": "true", "VisibilityTimeout": "1"])
        for i in 0..<4 {
            _ = try setupClient.sendMessage(
                queueURL: queue, body: PollerTestKit.eventJSON(id: "f\(i)", task: "deploy", title: "step \(i)", second: i),
                groupID: "deploy", deduplicationID: "f\(i)")
        }
        let transport = LosingTransport(lose: 1)
        let directory = try TemporaryDirectory(prefix: "fifo-attempts")
        let path = directory.file("t.db")
        let poller = Poller(
            client: TestClients.client(server, transport: transport),
            configuration: PollerConfiguration(queueURLs: [queue], concurrency: 1, waitSeconds: 1),
            makeStore: { try TimelineStore(path: path) })
        poller.start()
        let stored = PollerTestKit.eventually { poller.status.stored == 4 }
        #expect(poller.stop())
        #expect(stored, "status: \(poller.status.summary)")
        let ids = transport.attemptIDs.current
        #expect(ids.count >= 3)
        #expect(ids.allSatisfy { $0 != nil })
        #expect(ids[0] == ids[1], "the retry after the lost answer reuses the attempt id")
        #expect(ids[2] != ids[1], "a fresh receive gets a new attempt id")
        #expect(try TimelineStore(path: path).row(taskID: "deploy")?.event.title == "step 3")
    }

    /// Standard queues get no attempt id.
    @Test func standardQueuesSendNoAttemptID() throws {
        let kit = try PollerTestKit(prefix: "standard")
        try kit.send([PollerTestKit.eventJSON(id: "s1", task: "t", title: "one", second: 1)])
        let transport = LosingTransport(lose: 0)
        let path = kit.dbPath
        let poller = Poller(
            client: TestClients.client(kit.server, transport: transport),
            configuration: PollerConfiguration(queueURLs: [kit.queueURL], concurrency: 1, waitSeconds: 1),
            makeStore: { try TimelineStore(path: path) })
        poller.start()
        let stored = PollerTestKit.eventually { poller.status.stored == 1 }
        #expect(poller.stop())
        #expect(stored)
        #expect(transport.attemptIDs.current.allSatisfy { $0 == nil })
    }

    /// A message already received twice (never deleted) is counted when the poller receives it a third time.
    @Test func messagesReceivedThreeTimesAreCounted() throws {
        let kit = try PollerTestKit(prefix: "redelivered")
        try kit.send([PollerTestKit.eventJSON(id: "r1", task: "flaky", title: "again", second: 1)])
        for _ in 0..<2 {
            let got = try kit.client.receiveMessage(queueURL: kit.queueURL, maxMessages: 1, waitSeconds: 1, visibilityTimeout: 0)
            #expect(got.count == 1)
        }
        // Sent after: received once, by the poller.
        try kit.send([PollerTestKit.eventJSON(id: "r2", task: "fine", title: "once", second: 2)])
        let poller = kit.poller()
        poller.start()
        let stored = PollerTestKit.eventually { poller.status.stored == 2 }
        #expect(poller.stop())
        #expect(stored, "status: \(poller.status.summary)")
        #expect(poller.status.receivedManyTimes == 1)
        #expect(poller.status.summary.hasSuffix("; ⚠ 1 redelivered (3+ receives: see timeline doctor)"))
        #expect(try kit.store().row(taskID: "flaky")?.event.delivery?.receiveCount == 3)
        #expect(try kit.store().row(taskID: "fine")?.event.delivery?.isFlagged == false)
    }

    /// SNS-wrapped messages (raw delivery off) are unwrapped and stored under SNS's message id; a wrapped
    /// invalid event is kept whole with its reason; raw events still work beside them.
    @Test func snsEnvelopesAreUnwrapped() throws {
        let kit = try PollerTestKit(prefix: "sns")
        let event = PollerTestKit.eventJSON(id: "w1", task: "wrapped", title: "from SNS", second: 1)
        func envelope(_ message: String, id: String) throws -> String {
            let object: [String: Any] = [
                "Type": "Notification", "MessageId": id, "TopicArn": "arn:aws:sns:us-east-1:123456789012:fleet",
                "Message": message, "Timestamp": "2026-11-22T10:00:01.000Z", "SignatureVersion": "2",
            ]
            return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        }
        try kit.send([
            try envelope(event, id: "sns-1"),
            try envelope(#"{"id":"bad"}"#, id: "sns-2"),
            PollerTestKit.eventJSON(id: "r1", task: "raw", title: "raw event", second: 2),
        ])
        let poller = kit.poller()
        poller.start()
        let done = PollerTestKit.eventually { poller.status.deleted == 3 }
        #expect(poller.stop())
        #expect(done, "status: \(poller.status.summary)")
        let store = try kit.store()
        #expect(try store.row(taskID: "wrapped")?.event.rawJSON == event)
        #expect(try store.row(taskID: "raw")?.event.title == "raw event")
        // SentTimestamp and ApproximateReceiveCount are stored with each event (also in its history).
        let delivery = try #require(try store.row(taskID: "raw")?.event.delivery)
        #expect(delivery.receiveCount == 1)
        let sent = try #require(delivery.sentMicros)
        #expect(abs(sent - TimeFormat.nowMicros()) < 120_000_000)
        #expect(try store.history(taskID: "wrapped", limit: 5).first?.delivery?.receiveCount == 1)
        let rejected = try store.rejected(limit: 10)
        #expect(rejected.count == 1)
        #expect(rejected.first?.messageID == "sns-2")
        #expect(rejected.first?.reason == #"SNS message from arn:aws:sns:us-east-1:123456789012:fleet: missing required field "agent_id""#)
        #expect(rejected.first?.rawBody.contains(#""Type":"Notification""#) == true)
    }
}
