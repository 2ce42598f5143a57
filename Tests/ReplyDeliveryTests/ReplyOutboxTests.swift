import Foundation
import ReplyDelivery
import SQSClient
import TestSupport
import Testing
import TimelineCore
import TimelineStore

/// Replies sent to a real local SQS server, kept in a real SQLite file.
@Suite struct ReplyOutboxTests {
    final class Fixture {
        let directory: TemporaryDirectory
        let store: TimelineStore
        let client: SQSClient
        let outbox: ReplyOutbox

        init() throws {
            directory = try TemporaryDirectory(prefix: "replies")
            store = try TimelineStore(path: directory.file("timeline.db"))
            let server = try MotoServer.shared
            let client = TestClients.client(server)
            self.client = client
            outbox = ReplyOutbox(keeper: store, sender: ReplySender(
                policy: ReplyQueuePolicy(configuredEndpoint: server.endpoint.absoluteString), clientFor: { _ in client }))
        }

        func record(_ queueURL: String, id: String = UUID().uuidString.lowercased(), answer: Reply.Answer = .action("deploy")) -> ReplyRecord {
            ReplyRecord(reply: Reply(id: id, inReplyTo: "e1", taskID: "deploy-billing", agentID: "deployer", answer: answer,
                                     from: "alice@laptop", timestampMicros: TimeFormat.nowMicros()),
                        label: "Deploy", destination: .queue(queueURL), delivery: .sending, updatedMicros: 0)
        }

        func drain(_ queueURL: String) throws -> [Reply] {
            var out: [Reply] = []
            for _ in 0..<3 {
                let batch = try client.receiveMessage(queueURL: queueURL, maxMessages: 10, waitSeconds: 1)
                out += try batch.map { try Reply.parse($0.body).get() }
                if batch.isEmpty && !out.isEmpty { break }
            }
            return out
        }
    }

    @Test func aReplyReachesTheQueueAndIsStoredAsSent() throws {
        let f = try Fixture()
        let queue = try TestClients.freshQueue(f.client, prefix: "replies")
        let record = f.record(queue)
        let result = f.outbox.send(record)
        guard case .sent(let detail) = result.delivery else { Issue.record("not sent: \(result.delivery)"); return }
        #expect(detail.hasPrefix("message "))
        #expect(try f.drain(queue) == [record.reply])
        #expect(try f.store.reply(id: record.reply.id)?.delivery == result.delivery)
    }

    @Test func aFIFOQueueGetsTheTaskAsGroupAndTheReplyIDAsDeduplicationID() throws {
        let f = try Fixture()
        let queue = try f.client.createQueue(name: "replies-\(UUID().uuidString.prefix(8).lowercased()).fifo",
                                             attributes: ["FifoQueue": "true"])
        let record = f.record(queue)
        #expect(f.outbox.send(record).isSent)
        #expect(f.outbox.resend(replyID: record.reply.id)?.isSent == true)
        // The same reply id within five minutes is deduplicated by the queue: the agent sees it once.
        #expect(try f.drain(queue) == [record.reply])
    }

    @Test func aFailedSendIsKeptWithItsReasonAndResentWithTheSameID() throws {
        let f = try Fixture()
        let name = "replies-later-\(UUID().uuidString.prefix(8).lowercased())"
        let missing = try TestClients.freshQueue(f.client).replacingOccurrences(
            of: #"[^/]+$"#, with: name, options: .regularExpression)
        let record = f.record(missing, answer: .text("hold on"))
        let failed = f.outbox.send(record)
        guard case .failed(let reason) = failed.delivery else { Issue.record("sent to a missing queue"); return }
        #expect(reason.contains("NonExistentQueue") || reason.contains("QueueDoesNotExist"))
        #expect(try f.store.replies(taskID: "deploy-billing").map(\.delivery) == [failed.delivery])

        _ = try f.client.createQueue(name: name)
        let resent = try #require(f.outbox.resend(replyID: record.reply.id))
        #expect(resent.isSent)
        #expect(try f.drain(missing) == [record.reply])
        #expect(try f.store.replies(taskID: "deploy-billing").map(\.reply.id) == [record.reply.id])
    }

    @Test func aWebhookTheValidatorWouldRefuseIsNeverContacted() throws {
        let f = try Fixture()
        var record = f.record("unused")
        record.destination = .webhook("http://example.com/hook")
        #expect(f.outbox.send(record).delivery == .failed(reason: "not an allowed webhook URL"))
        record.destination = .webhook("https://user:pw@example.com/hook")
        record.reply.id = UUID().uuidString
        #expect(f.outbox.send(record).delivery == .failed(reason: "not an allowed webhook URL"))
    }

    @Test func aReplyToOnAnotherHostIsRefusedBeforeAnythingIsSigned() throws {
        let f = try Fixture()
        let capture = try LoopbackHTTPServer { _ in .respond(status: 200, headers: [], body: "{}") }
        defer { capture.stop() }
        let made = Locked(0)
        let sender = ReplySender(policy: ReplyQueuePolicy(viewerRegion: "eu-west-1"), clientFor: { target in
            made.withValue { $0 += 1 }
            return TestClients.client(endpoint: URL(string: target.endpoint)!)
        })
        let outbox = ReplyOutbox(keeper: f.store, sender: sender)
        for queue in ["http://127.0.0.1:\(capture.port)/123456789012/replies",
                      "https://sqs.eu-west-1.amazonaws.com.evil.example/123456789012/replies",
                      "https://sqs.cn-north-1.amazonaws.com.cn/123456789012/replies"] {
            let result = outbox.send(f.record(queue))
            guard case .failed(let reason) = result.delivery else { Issue.record("sent to \(queue)"); continue }
            #expect(reason.contains("nothing was signed or sent"))
        }
        #expect(made.current == 0, "no client was made")
        #expect(capture.connectionCount == 0, "the capture server heard nothing")
    }
}
