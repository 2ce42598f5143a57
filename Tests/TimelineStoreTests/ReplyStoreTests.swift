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
