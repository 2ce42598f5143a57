import Foundation
import Testing
@testable import TimelineCore

/// Actions, reply_to and replies: what the parser keeps and how a reply is written and read back.
@Suite struct InteractionTests {
    static let asking = #"{"id":"e1","agent_id":"deployer","task_id":"t1","title":"Deploy?","status":"needs_input","timestamp":"2026-11-22T03:04:05Z","actions":[{"id":"deploy","label":"Deploy","style":"primary"},{"id":"cancel","label":"Cancel","url":"http://127.0.0.1:9/hook"}],"reply_to":"http://127.0.0.1:5000/123456789012/agent-replies.fifo"}"#

    @Test func anAcceptedEventExposesItsActionsAndReplyQueue() throws {
        let event = try EventParser.parse(Self.asking).get()
        #expect(event.status == .needsInput)
        let interaction = event.interaction
        #expect(interaction.actions == [
            EventAction(id: "deploy", label: "Deploy", style: .primary),
            EventAction(id: "cancel", label: "Cancel", url: "http://127.0.0.1:9/hook"),
        ])
        #expect(interaction.replyTo == "http://127.0.0.1:5000/123456789012/agent-replies.fifo")
        #expect(AWSNames.queueName(interaction.replyTo!) == "agent-replies.fifo")
        #expect(AWSNames.isFIFO(interaction.replyTo!))
    }

    @Test func eventsWithoutActionsHaveNoInteraction() throws {
        let event = try EventParser.parse(#"{"id":"e","agent_id":"a","task_id":"t","title":"x","status":"info","timestamp":"2026-11-22T03:04:05Z"}"#).get()
        #expect(event.interaction.isEmpty)
    }

    @Test func aReplyIsWrittenAndReadBackExactly() throws {
        let reply = Reply(id: "9b2f", inReplyTo: "e1", taskID: "t1", agentID: "deployer", answer: .action("deploy"),
                          from: "alice@laptop", timestampMicros: 1_795_000_000_123_000)
        #expect(reply.json.hasPrefix(#"{"type":"reply","id":"9b2f","in_reply_to":"e1","task_id":"t1","agent_id":"deployer","action":"deploy","from":"alice@laptop","timestamp":"#))
        #expect(try Reply.parse(reply.json).get() == reply)
        var text = reply
        text.answer = .text("ship it \"now\"\n")
        #expect(try Reply.parse(text.json).get() == text)
    }

    @Test(arguments: [
        (#"{"type":"reply","id":"r","in_reply_to":"e","task_id":"t","agent_id":"a","from":"f","timestamp":"2026-11-22T03:04:05Z"}"#,
         #"a reply needs "action" or "text""#),
        (#"{"type":"reply","id":"r","in_reply_to":"e","task_id":"t","agent_id":"a","action":"x","text":"y","from":"f","timestamp":"2026-11-22T03:04:05Z"}"#,
         #"a reply has "action" or "text", not both"#),
        (#"{"type":"event","id":"r"}"#, #"field "type" must be "reply", got "event""#),
        (#"{"type":"reply","id":"r","in_reply_to":"e","task_id":"t","agent_id":"a","action":"x","from":"f","timestamp":"2026-11-22T03:04:05Z","id":"again"}"#,
         #"duplicate field "id""#),
    ])
    func malformedRepliesAreRefusedWithAReason(body: String, reason: String) {
        guard case .failure(let rejection) = Reply.parse(body) else { Issue.record("accepted \(body)"); return }
        #expect(rejection.reason == reason)
    }

    @Test func textRepliesAreCheckedBeforeSending() {
        #expect(Reply.textProblem("  ") == "the reply is empty")
        #expect(Reply.textProblem(String(repeating: "é", count: 2_049)) == "the reply is 4098 bytes, longer than the 4096-byte limit")
        #expect(Reply.textProblem("ok") == nil)
    }
}

/// The shared reply examples (`schema/examples/replies`), also run by `agent-tool/tests/test_examples.py`.
@Suite struct ReplyExampleTests {
    @Test func everyReplyExampleIsReadOrRefusedWithItsExactReason() throws {
        let root = ExamplePayloads.root.appendingPathComponent("replies")
        let reasons = try JSONDecoder().decode([String: String].self,
                                               from: Data(contentsOf: root.appendingPathComponent("invalid/reasons.json")))
        let invalid = try ExamplePayloads.bodies("replies/invalid")
        #expect(Set(invalid.map(\.name)) == Set(reasons.keys), "every invalid reply needs a reason and vice versa")
        for (name, bytes) in invalid {
            switch Reply.parse(String(decoding: bytes, as: UTF8.self)) {
            case .success: Issue.record("\(name): accepted, expected \(reasons[name] ?? "?")")
            case .failure(let rejection): #expect(rejection.reason == reasons[name], "\(name)")
            }
        }
        let valid = try ExamplePayloads.bodies("replies/valid")
        #expect(valid.count >= 3)
        for (name, bytes) in valid {
            let text = String(decoding: bytes, as: UTF8.self)
            guard case .success(let reply) = Reply.parse(text) else { Issue.record("\(name): refused"); continue }
            // What the viewer writes reads back the same (the JSON writer and the reader agree).
            #expect(try Reply.parse(reply.json).get() == reply, "\(name)")
        }
    }
}
