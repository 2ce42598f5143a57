import Foundation
import ReplyDelivery
import SQSClient
import TestSupport
import Testing
import TimelineCore

/// Waiters on one reply queue of a real local SQS server (moto): each gets its own reply, and while only
/// others' replies are there they do not poll in a tight loop.
@Suite struct SharedReplyQueueTests {
    static func question(_ n: Int) -> AskedQuestion {
        AskedQuestion(eventID: "event-\(n)-\(UUID().uuidString)", taskID: "task-\(n)", agentID: "agent-\(n)",
                      offeredActions: ["yes", "no"])
    }

    static func reply(to question: AskedQuestion, _ action: String) -> String {
        Reply(inReplyTo: question.eventID, taskID: question.taskID, agentID: question.agentID, answer: .action(action),
              from: "alice@laptop", timestampMicros: TimeFormat.nowMicros()).json
    }

    static func receives(_ transport: RecordingTransport) -> Int {
        transport.requests.filter { $0.headers.value(for: "X-Amz-Target") == "AmazonSQS.ReceiveMessage" }.count
    }

    @Test func twoWaitersOnOneQueueBothGetTheirReplies() throws {
        let server = try MotoServer.shared
        let client = TestClients.client(server)
        let queue = try TestClients.freshQueue(client, prefix: "replies")
        let (first, second) = (Self.question(1), Self.question(2))
        // Both replies are on the queue before either waiter starts: each must pass the other's over.
        _ = try client.sendMessage(queueURL: queue, body: Self.reply(to: second, "no"))
        _ = try client.sendMessage(queueURL: queue, body: Self.reply(to: first, "yes"))
        let results = Locked<[Int: Reply]>([:])
        let group = DispatchGroup()
        for (n, question) in [(1, first), (2, second)] {
            DispatchQueue.global().async(group: group) {
                var waiter = ReplyWaiter(client: TestClients.client(server), queueURL: queue,
                                         acceptance: ReplyAcceptance(question: question, allowedSenders: nil))
                let reply = try? waiter.wait(seconds: 30)
                results.withValue { $0[n] = reply }
            }
        }
        #expect(group.wait(timeout: .now() + 60) == .success)
        #expect(results.current[1]?.answer == .action("yes") && results.current[1]?.inReplyTo == first.eventID)
        #expect(results.current[2]?.answer == .action("no") && results.current[2]?.inReplyTo == second.eventID)
    }

    @Test func onlyOthersRepliesOnTheQueueAreNotPolledInATightLoop() throws {
        let server = try MotoServer.shared
        let setup = TestClients.client(server)
        let queue = try TestClients.freshQueue(setup, prefix: "replies")
        _ = try setup.sendMessage(queueURL: queue, body: Self.reply(to: Self.question(2), "yes"))
        let transport = RecordingTransport()
        var waiter = ReplyWaiter(client: TestClients.client(server, transport: transport), queueURL: queue,
                                 acceptance: ReplyAcceptance(question: Self.question(1), allowedSenders: nil))
        #expect(try waiter.wait(seconds: 5) == nil)
        // Each receive returns the released reply at once: without backing off, hundreds in 5 s; with it one
        // receive after 0.25, 0.5, 1, 2 and 4 s of waiting at most.
        let receives = Self.receives(transport)
        #expect(receives >= 2 && receives <= 8, "\(receives) receives")
        let left = try setup.receiveMessage(queueURL: queue, maxMessages: 10, waitSeconds: 1)
        #expect(left.count == 1, "the other question's reply is still there for its owner")
    }
}
