import Foundation
import Testing
import TimelineCore
@testable import TimelineStore

/// Replies kept in SQLite: recorded before sending, outcome updated, kept across reopening, resent with the same id.
@Suite struct ReplyStoreTests {
    static func record(_ id: String, answer: Reply.Answer = .action("deploy"), event: String = "e1",
                       delivery: ReplyRecord.Delivery = .sending) -> ReplyRecord {
        ReplyRecord(
            reply: Reply(id: id, inReplyTo: event, taskID: "t1", agentID: "deployer", answer: answer,
                         from: "alice@laptop", timestampMicros: 1_000_000),
            label: answer == .action("deploy") ? "Deploy" : nil,
            destination: .queue("http://127.0.0.1:5000/123456789012/agent-replies"), delivery: delivery,
            updatedMicros: 1_000_000)
    }

    @Test func aReplySurvivesReopeningWithItsOutcome() throws {
        let fixture = try StoreFixture()
        try fixture.store.record(Self.record("r1"))
        try fixture.store.updateDelivery(replyID: "r1", .sent(detail: "msg-1"), atMicros: 2_000_000)
        try fixture.store.record(Self.record("r2", answer: .text("hold on"), event: "e2"))
        try fixture.store.updateDelivery(replyID: "r2", .failed(reason: "AccessDenied: not allowed"), atMicros: 3_000_000)

        let reopened = try fixture.secondConnection()
        let replies = try reopened.replies(taskID: "t1")
        #expect(replies.map(\.reply.id) == ["r1", "r2"])
        #expect(replies[0].delivery == .sent(detail: "msg-1"))
        #expect(replies[0].answerText == "Deploy")
        #expect(replies[1].delivery == .failed(reason: "AccessDenied: not allowed"))
        #expect(replies[1].reply.answer == .text("hold on"))
        #expect(try reopened.latestReplies(inReplyTo: ["e1", "e9"]).keys.sorted() == ["e1"])
    }

    @Test func aResendKeepsTheReplyIDAndReplacesTheOutcome() throws {
        let fixture = try StoreFixture()
        try fixture.store.record(Self.record("r1", delivery: .failed(reason: "timed out")))
        var again = try #require(try fixture.store.reply(id: "r1"))
        again.delivery = .sending
        try fixture.store.record(again)
        try fixture.store.updateDelivery(replyID: "r1", .sent(detail: "msg-2"), atMicros: 5_000_000)
        let replies = try fixture.store.replies(taskID: "t1")
        #expect(replies.count == 1)
        #expect(replies[0].reply == Self.record("r1").reply)
        #expect(replies[0].delivery == .sent(detail: "msg-2"))
        #expect(replies[0].updatedMicros == 5_000_000)
    }
}

@Suite struct AgentDirectoryTests {
    @Test func agentsAreListedNewestFirstWithCountsAndTheirLatestEvent() throws {
        let fixture = try StoreFixture()
        try fixture.store.ingestEvents([
            makeEvent("e1", task: "a1", second: 1, status: .inProgress, agent: "deployer"),
            makeEvent("e2", task: "a2", second: 2, status: .error, agent: "deployer"),
            makeEvent("e3", task: "b1", second: 3, status: .success, agent: "reviewer"),
            makeEvent("e4", task: "a3", second: 4, status: .needsInput, agent: "deployer"),
        ])
        let agents = try fixture.store.agents(limit: 10)
        #expect(agents.map(\.agentID) == ["deployer", "reviewer"])
        #expect((agents[0].running, agents[0].errors, agents[0].waiting, agents[0].tasks) == (1, 1, 1, 3))
        #expect(agents[0].latest.id == "e4" && agents[1].latest.id == "e3")
        #expect(try fixture.store.agents(limit: 1).count == 1)
    }
}
