import Foundation
import Testing
import TestSupport
@testable import TimelineCore

/// The reply acceptance rule against the examples shared with `agent-tool/tests/test_reply_acceptance.py`.
@Suite struct ReplyAcceptanceTests {
    static let folder = RepositoryPaths.root.appendingPathComponent("schema/examples/reply-acceptance")

    static func cases() throws -> [(name: String, json: [String: Any])] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { name in
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            return (String(name.dropLast(5)), try JSONSerialization.jsonObject(with: data) as! [String: Any])
        }
    }

    /// "accepted", the refusal's reason, or "allowlist: " and the allowlist's problem.
    static func outcome(of example: [String: Any]) throws -> String {
        let q = example["question"] as! [String: Any]
        let question = AskedQuestion(eventID: q["event_id"] as! String, taskID: q["task_id"] as! String,
                                     agentID: q["agent_id"] as! String, offeredActions: Set(q["actions"] as! [String]),
                                     acceptsText: q["accepts_text"] as? Bool)
        let allowlist: SenderAllowlist?
        do {
            allowlist = try (example["reply_senders"] as? String).flatMap { value throws(SenderAllowlist.Problem) in
                try SenderAllowlist.parse(value)
            }
        } catch {
            return "allowlist: \(error.description)"
        }
        var acceptance = ReplyAcceptance(
            question: question, allowedSenders: allowlist,
            requirement: example["senders_required"] as? Bool == true ? .required : .optional,
            seenReplyIDs: Set(example["seen"] as? [String] ?? []))
        let body = String(decoding: try JSONSerialization.data(withJSONObject: example["reply"]!), as: UTF8.self)
        let reply = try Reply.parse(body).get()
        switch acceptance.check(reply, senderID: example["sender"] as? String) {
        case .success(let accepted):
            #expect(accepted == reply)
            return "accepted"
        case .failure(let refusal): return refusal.reason
        }
    }

    @Test func everySharedExampleHasItsExpectedOutcome() throws {
        let cases = try Self.cases()
        #expect(cases.count >= 20)
        for (name, example) in cases {
            #expect(try Self.outcome(of: example) == example["expect"] as? String, "\(name)")
        }
    }

    @Test func aReplyIDCountsOnceEvenWhenTheFirstWasRefused() {
        let question = AskedQuestion(eventID: "e1", taskID: "t1", agentID: "a1", offeredActions: ["yes", "no"])
        var acceptance = ReplyAcceptance(question: question, allowedSenders: nil)
        let forged = Reply(id: "r1", inReplyTo: "e1", taskID: "t1", agentID: "a1", answer: .action("rm-rf-prod"),
                           from: "x", timestampMicros: 0)
        #expect(acceptance.check(forged, senderID: nil) == .failure(.actionNotOffered("rm-rf-prod")))
        var reused = forged
        reused.answer = .action("yes")
        #expect(acceptance.check(reused, senderID: nil) == .failure(.replayed("r1")))
        var fresh = reused
        fresh.id = "r2"
        #expect(acceptance.check(fresh, senderID: nil) == .success(fresh))
        #expect(acceptance.check(fresh, senderID: nil) == .failure(.replayed("r2")))
    }

    @Test func anotherQuestionsReplyIsNotRemembered() {
        var acceptance = ReplyAcceptance(
            question: AskedQuestion(eventID: "e1", taskID: "t1", agentID: "a1", offeredActions: ["yes"]), allowedSenders: nil)
        let other = Reply(id: "r1", inReplyTo: "e2", taskID: "t1", agentID: "a1", answer: .action("yes"), from: "x", timestampMicros: 0)
        #expect(acceptance.check(other, senderID: nil) == .failure(.notThisQuestion("e2")))
        #expect(acceptance.seenReplyIDs.isEmpty)
    }

    @Test func allowlistEntries() throws {
        #expect(SenderAllowlist.entryProblem("AIDAEXAMPLE") == nil)
        #expect(SenderAllowlist.entryProblem("AROAEXAMPLE:my-session@corp") == nil)
        #expect(SenderAllowlist.entryProblem("123456789012") == nil)
        #expect(SenderAllowlist.entryProblem("AROAEXAMPLE:") != nil)
        #expect(SenderAllowlist.entryProblem("*") != nil)
        #expect(SenderAllowlist.entryProblem("aida lower") != nil)
        #expect(try SenderAllowlist.parse("") == nil)
        let list = try #require(try SenderAllowlist.parse(" AROAROLE , AIDAUSER"))
        #expect(list.entries == ["AROAROLE", "AIDAUSER"])
        #expect(list.allows("AROAROLE:anything"))
        #expect(!list.allows("AIDAUSER:session"), "a user id entry does not match as a prefix")
        #expect(!list.allows(nil) && !list.allows(""))
    }
}

/// `DisplayText.escaped` (what `timeline ask` prints; the bytes form agrees on text) against the cases shared with `terminal_text.py`.
@Suite struct EscapedAnswerTests {
    @Test func sharedCases() throws {
        let data = try Data(contentsOf: RepositoryPaths.root.appendingPathComponent("schema/examples/escaped-text.json"))
        let cases = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["cases"] as? [[String]])
        #expect(cases.count >= 10)
        for pair in cases {
            #expect(DisplayText.escaped(pair[0]) == pair[1], "\(pair[0].debugDescription)")
            #expect(DisplayText.escaped(bytes: Array(pair[0].utf8)) == pair[1], "bytes of \(pair[0].debugDescription)")
        }
    }
}
