import Foundation
import ReplyDelivery
import SQSClient
import TestSupport
import Testing
import TimelineCore

/// `ReplyWaiter` against scripted SQS answers: what is taken, refused, released, and how often it asks.
@Suite struct ReplyWaiterTests {
    static let question = AskedQuestion(eventID: "e1", taskID: "t1", agentID: "deployer", offeredActions: ["deploy", "cancel"])

    static func reply(id: String, inReplyTo: String = "e1", task: String = "t1", agent: String = "deployer",
                      _ answer: Reply.Answer = .action("deploy")) -> String {
        Reply(id: id, inReplyTo: inReplyTo, taskID: task, agentID: agent, answer: answer, from: "alice@laptop",
              timestampMicros: 1_700_000_000_000_000).json
    }

    /// A ReceiveMessage answer; each body with its receipt handle `rh-<n>` and a SenderId.
    static func answer(_ bodies: [(handle: String, body: String)], sender: String = "AIDAVIEWER") -> HTTPResponse {
        let items: [[String: Any]] = bodies.map {
            ["MessageId": "m-" + $0.handle, "ReceiptHandle": $0.handle, "Body": $0.body,
             "Attributes": ["ApproximateReceiveCount": "1", "SenderId": sender]]
        }
        let data = try! JSONSerialization.data(withJSONObject: ["Messages": items])
        return ScriptedTransport.ok(String(decoding: data, as: UTF8.self))
    }

    /// A waiter whose receives are answered by `receives` in turn (then empty), with a clock that only sleeps move.
    static func waiter(_ receives: [HTTPResponse], senders: String? = nil)
        -> (ReplyWaiter, ScriptedTransport, Locked<[String]>, Locked<Date>) {
        let script = Locked(receives)
        let transport = ScriptedTransport { call in
            switch call.action {
            case "ReceiveMessage":
                return script.withValue { $0.isEmpty ? ScriptedTransport.ok("{}") : $0.removeFirst() }
            case "DeleteMessageBatch": return ScriptedTransport.deleted(call)
            default: return ScriptedTransport.ok("{}")
            }
        }
        let client = SQSClient(endpoint: URL(string: "http://127.0.0.1:1")!, region: "us-east-1",
                               credentials: StaticCredentialsProvider(TestClients.credentials), transport: transport)
        let allowlist = senders.map { try! SenderAllowlist.parse($0) } ?? nil
        var waiter = ReplyWaiter(client: client, queueURL: "http://127.0.0.1:1/123/replies",
                                 acceptance: ReplyAcceptance(question: question, allowedSenders: allowlist))
        let refused = Locked<[String]>([])
        let clock = Locked(Date(timeIntervalSince1970: 1_000))
        waiter.onRefused = { _, refusal in refused.withValue { $0.append(refusal.reason) } }
        waiter.now = { clock.current }
        waiter.sleep = { seconds in clock.withValue { $0 = $0.addingTimeInterval(seconds) } }
        return (waiter, transport, refused, clock)
    }

    static func handles(_ transport: ScriptedTransport, _ action: String) -> [String] {
        transport.calls(action).flatMap { call -> [String] in
            if let entries = call.body["Entries"] as? [[String: Any]] { return entries.compactMap { $0["ReceiptHandle"] as? String } }
            return (call.body["ReceiptHandle"] as? String).map { [$0] } ?? []
        }
    }

    @Test func forgedRepliesAreDeletedAndReportedAndTheRightOneIsTaken() throws {
        let (base, transport, refused, _) = Self.waiter([
            Self.answer([("forged-action", Self.reply(id: "r1", .action("rm-rf-prod"))),
                         ("other-task", Self.reply(id: "r2", task: "t2")),
                         ("other-agent", Self.reply(id: "r3", agent: "intruder")),
                         ("text", Self.reply(id: "r4", .text("deploy"))),
                         ("not-a-reply", "hello"),
                         ("someone-elses", Self.reply(id: "r5", inReplyTo: "e2"))]),
            Self.answer([("replayed", Self.reply(id: "r1")), ("right", Self.reply(id: "r6", .action("cancel")))]),
        ])
        var waiter = base
        let reply = try #require(try waiter.wait(seconds: 60))
        #expect(reply.id == "r6" && reply.answer == .action("cancel"))
        #expect(refused.current == [
            "action \"rm-rf-prod\" was not offered", "the reply is for another task (\"t2\")",
            "the reply is for another agent (\"intruder\")", "a text reply to a question that offered only actions",
            "reply id \"r1\" was already seen",
        ])
        #expect(Set(Self.handles(transport, "DeleteMessageBatch"))
                == ["forged-action", "other-task", "other-agent", "text", "replayed", "right"])
        #expect(Set(Self.handles(transport, "ChangeMessageVisibility")) == ["not-a-reply", "someone-elses"])
        #expect(transport.calls("ChangeMessageVisibility").allSatisfy { $0.body["VisibilityTimeout"] as? Int == 0 })
    }

    @Test func aSenderOutsideTheAllowlistIsRefused() throws {
        let (base, _, refused, _) = Self.waiter([
            Self.answer([("intruder", Self.reply(id: "r1"))], sender: "AIDAINTRUDER"),
            Self.answer([("viewer", Self.reply(id: "r2"))], sender: "AIDAVIEWER"),
        ], senders: "AIDAVIEWER")
        var waiter = base
        #expect(try waiter.wait(seconds: 60)?.id == "r2")
        #expect(refused.current == ["sender \"AIDAINTRUDER\" is not in the reply sender allowlist"])
    }

    @Test func receiveAsksForTheSenderID() throws {
        let (base, transport, _, _) = Self.waiter([Self.answer([("right", Self.reply(id: "r1"))])])
        var waiter = base
        _ = try waiter.wait(seconds: 5)
        let receive = try #require(transport.calls("ReceiveMessage").first)
        #expect((receive.body["MessageSystemAttributeNames"] as? [String])?.contains("SenderId") == true)
    }

    @Test func onlyOthersRepliesSlowTheReceivesDown() throws {
        // Another question's reply comes back on every receive (as it does on a shared queue).
        let others = Array(repeating: Self.answer([("theirs", Self.reply(id: "x", inReplyTo: "e2"))]), count: 1_000)
        let (base, transport, _, clock) = Self.waiter(others)
        var waiter = base
        let start = clock.current
        #expect(try waiter.wait(seconds: 60) == nil)
        let receives = transport.calls("ReceiveMessage").count
        // 0.25 + 0.5 + 1 + 2 + 4 s, then one every 4 s: about 20 in a minute, not thousands.
        #expect(receives >= 10 && receives <= 22, "\(receives) receives")
        #expect(clock.current.timeIntervalSince(start) >= 60)
    }

    @Test func anEmptyReceiveResetsTheBackoff() {
        var backoff = OthersBackoff()
        #expect([true, true, true, true, true, true].map { backoff.next(receivedOnlyOthers: $0) } == [0.25, 0.5, 1, 2, 4, 4])
        #expect(backoff.next(receivedOnlyOthers: false) == 0)
        #expect(backoff.next(receivedOnlyOthers: true) == 0.25)
    }

    @Test func noAnswerInTimeIsNil() throws {
        let (base, transport, _, clock) = Self.waiter([])
        var waiter = base
        // An empty receive returns at once here: the scripted clock moves only when the waiter sleeps, so move it.
        waiter.now = { clock.withValue { $0 = $0.addingTimeInterval(1); return $0 } }
        #expect(try waiter.wait(seconds: 5) == nil)
        #expect(transport.calls("ReceiveMessage").count >= 1)
    }
}
