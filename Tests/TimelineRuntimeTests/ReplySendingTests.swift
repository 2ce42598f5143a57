import Foundation
import Testing
import TestSupport
import TimelineCore
import TimelineRuntime
import TimelineStore
@testable import TimelineUI

/// The runtime sends a confirmed reply once, on its send lane, and feeds the outcome back as an input.
@Suite("Sending replies from the runtime")
struct ReplySendingTests {
    static let question = #"{"id":"ev-q","agent_id":"deployer","task_id":"deploy","title":"Deploy?","status":"needs_input","timestamp":"2026-11-22T02:59:00Z","actions":[{"id":"deploy","label":"Deploy"},{"id":"cancel","label":"Cancel"}],"reply_to":"https://sqs.eu-west-1.amazonaws.com/123456789012/replies"}"#

    /// `1y` read in one burst (a frame is drawn only after both): the `y` came before the confirmation was
    /// on screen and sends nothing; typed again once it was drawn, it sends.
    @Test func aYInTheSameBurstAsTheDigitSendsNothing() throws {
        let sent = Locked(0)
        let h = try StoreHarness(height: 20) { record in sent.withValue { $0 += 1 }; return record }
        try h.publish(json: Self.question)
        h.start()
        h.press(.char("i"))
        h.send(.key(.char("1")), .key(.char("y")))
        guard case .confirm? = h.state.answering.prompt else { Issue.record("the confirmation closed"); return }
        #expect(sent.withValue { $0 } == 0 && h.state.answering.confirmNote != nil)
        h.press(.char("y"))
        #expect(sent.withValue { $0 } == 1 && h.state.answering.prompt == nil)
    }

    @Test func iDigitYSendsExactlyOnceAndTheOutcomeComesBack() throws {
        let sent = Locked<[ReplyRecord]>([])
        let h = try StoreHarness(height: 20) { record in
            sent.withValue { $0.append(record) }
            var outcome = record
            outcome.delivery = .sent(detail: "message m-1")
            return outcome
        }
        try h.publish(json: Self.question)
        try h.publish("T-other", secondsAgo: 5)
        h.start()
        h.press(.char("i"))
        #expect(h.state.detail?.taskID == "deploy")
        h.press(.char("1"), .char("y"))
        #expect(h.state.answering.notice == #"sent "Deploy" to queue replies (message m-1)"#)
        #expect(h.state.answering.answered(try EventParser.parse(Self.question).get()))
        h.press(.char("y"))  // a second y is no confirmation: nothing more is sent
        let records = sent.withValue { $0 }
        #expect(records.count == 1)
        #expect(records.first?.reply.answer == .action("deploy") && records.first?.reply.inReplyTo == "ev-q")
    }

    @Test func cancellingSendsNothing() throws {
        let calls = Locked(0)
        let h = try StoreHarness(height: 20) { record in calls.withValue { $0 += 1 }; return record }
        try h.publish(json: Self.question)
        h.start()
        h.press(.char("i"), .char("2"), .char("n"), .char("1"), .escape)
        #expect(calls.withValue { $0 } == 0)
        #expect(h.state.answering.notice == "cancelled: nothing sent")
    }

    @Test func repliesStoredBeforeARestartMarkTheRowAnswered() throws {
        let h = try StoreHarness(height: 20)
        try h.publish(json: Self.question)
        try h.writer.record(ReplyRecord(
            reply: Reply(id: "r-1", inReplyTo: "ev-q", taskID: "deploy", agentID: "deployer", answer: .action("deploy"),
                         from: "alice@laptop", timestampMicros: fixedNow),
            label: "Deploy", destination: .queue("https://sqs.eu-west-1.amazonaws.com/123456789012/replies"),
            delivery: .sent(detail: "message m-1"), updatedMicros: fixedNow))
        h.start()
        let row = try #require(h.state.window.first)
        #expect(h.state.answering.answered(row.event))
        h.press(.enter)
        #expect(h.state.detail?.replies.map(\.reply.id) == ["r-1"])
    }
}
