import AgentHooks
import Foundation
import StrictJSON
import Testing
import TimelineCore

@Suite("Permission prompts answered on the timeline")
struct PermissionPromptTests {
    let builder = HookEventBuilder(agent: .claude, host: "devbox")
    let replyQueue = "https://sqs.eu-west-1.amazonaws.com/123456789012/devbox-replies"

    struct StubWaiter: PermissionAnswerWaiter {
        var answer: PermissionAnswer?
        let asked = Recorder()
        func answer(to question: PermissionQuestion, until deadline: Date) -> PermissionAnswer? {
            asked.append(question.questionID)
            return answer
        }
    }

    func input() throws -> HookInput { try FixtureFiles.input("claude/PermissionRequest.json") }

    @Test func theQuestionShowsTheCommandAndOffersWhatClaudeOffers() throws {
        let question = try #require(PermissionPrompt.question(try input(), builder: builder, replyQueueURL: replyQueue))
        #expect(question.actions == ["allow", "allow-session", "deny"])
        let event = try EventParser.parse(question.payload).get()
        #expect(event.status == .needsInput && event.title == "Waiting for you: Bash rm -rf build")
        #expect(event.body.contains("$ rm -rf build") && event.id == question.questionID && event.taskID == "claude:abc123")
        #expect(question.payload.contains("\"reply_to\":\"\(replyQueue)\""))

        var fields = try input().fields
        fields["permission_suggestions"] = nil
        let plain = try #require(PermissionPrompt.question(HookInput(fields: fields), builder: builder, replyQueueURL: replyQueue))
        #expect(plain.actions == ["allow", "deny"], "no session rule offered when Claude suggests none")
    }

    @Test func aCapturedPromptShowsEverythingAllowForTheSessionGrants() throws {
        let captured = try FixtureFiles.input("claude-captured/PermissionRequest.json")
        let question = try #require(PermissionPrompt.question(captured, builder: builder, replyQueueURL: replyQueue))
        let event = try EventParser.parse(question.payload).get()
        #expect(event.body.contains("- addDirectories /tmp/shop (session)") && event.body.contains("- setMode acceptEdits (session)"))
        let decision = PermissionPrompt.decisionJSON(.allowForSession, question: question)
        let object = try #require(JSONReader.object(from: Array(decision.utf8)))
        let output = try #require(object["hookSpecificOutput"] as? [String: Any])
        let rules = try #require((output["decision"] as? [String: Any])?["updatedPermissions"] as? [[String: Any]])
        #expect(rules.map { $0["type"] as? String } == ["addDirectories", "setMode"], "all of Claude's suggestions, as shown")
        let stop = try #require(ClaudeHooks.report(try FixtureFiles.input("claude-captured/Stop.json"), options: HookOptions()))
        #expect(stop.title == "Done: All done: the command printed hooks-e2e." && stop.status == .success)
    }

    @Test func repliesMeanOnlyOfferedAnswers() {
        let offered = ["allow", "deny"]
        #expect(PermissionAnswer(action: "allow", text: nil, offered: offered) == .allowOnce)
        #expect(PermissionAnswer(action: "allow-session", text: nil, offered: offered) == nil)
        #expect(PermissionAnswer(action: nil, text: "use make clean", offered: offered) == .deny(message: "use make clean"))
        #expect(PermissionAnswer(action: "deny", text: nil, offered: offered) == .deny(message: nil))
        #expect(PermissionAnswer(action: "rm -rf /", text: nil, offered: offered) == nil)
        #expect(PermissionAnswer(action: nil, text: nil, offered: offered) == nil)
    }

    @Test func decisionsAreClaudesDocumentedShape() throws {
        let question = try #require(PermissionPrompt.question(try input(), builder: builder, replyQueueURL: replyQueue))
        func decision(_ answer: PermissionAnswer) throws -> [String: Any] {
            let object = try #require(JSONReader.object(from: Array(PermissionPrompt.decisionJSON(answer, question: question).utf8)))
            let output = try #require(object["hookSpecificOutput"] as? [String: Any])
            #expect(output["hookEventName"] as? String == "PermissionRequest")
            return try #require(output["decision"] as? [String: Any])
        }
        #expect(try decision(.allowOnce)["behavior"] as? String == "allow")
        let session = try decision(.allowForSession)
        let rules = try #require(session["updatedPermissions"] as? [[String: Any]])
        #expect(rules.count == 1 && rules[0]["destination"] as? String == "localSettings")
        let deny = try decision(.deny(message: "not now"))
        #expect(deny["behavior"] as? String == "deny" && deny["message"] as? String == "not now")
    }

    @Test func anAnswerIsPrintedAndTheQuestionClosed() throws {
        let published = Recorder()
        let flow = PermissionFlow(waiter: StubWaiter(answer: .deny(message: "use make clean")),
                                  publishQuestion: { published.append($0); return true }, publish: { published.append($0) })
        let output = try #require(flow.run(try input(), builder: builder, replyQueueURL: replyQueue, wait: 5))
        #expect(output.contains("\"behavior\":\"deny\"") && output.contains("use make clean"))
        let events = try published.values.map { try EventParser.parse($0).get() }
        #expect(events.map(\.status) == [.needsInput, .inProgress])
        #expect(events[1].title == "Denied from the timeline: Bash rm -rf build")
    }

    @Test func noAnswerInTimePrintsNothingAndWithdrawsTheQuestion() throws {
        let published = Recorder()
        let flow = PermissionFlow(waiter: StubWaiter(answer: nil), publishQuestion: { published.append($0); return true },
                                  publish: { published.append($0) })
        #expect(flow.run(try input(), builder: builder, replyQueueURL: replyQueue, wait: 0.1) == nil)
        let events = try published.values.map { try EventParser.parse($0).get() }
        #expect(events.count == 2 && events[1].title == "Waiting for you in the terminal: Bash rm -rf build")
        #expect(!published.values[1].contains("\"actions\""), "the withdrawn question offers no buttons")
    }

    @Test func aQuestionThatDidNotReachTheQueueIsNotWaitedFor() throws {
        let published = Recorder()
        let waiter = StubWaiter(answer: .allowOnce)
        let flow = PermissionFlow(waiter: waiter, publishQuestion: { _ in false }, publish: { published.append($0) })
        #expect(flow.run(try input(), builder: builder, replyQueueURL: replyQueue, wait: 60) == nil)
        #expect(waiter.asked.values.isEmpty, "no answer is awaited to a question nobody sees")
        let events = try published.values.map { try EventParser.parse($0).get() }
        #expect(events.map(\.title) == ["Waiting for you in the terminal: Bash rm -rf build"])
    }

    @Test func theTerminalAnswerIsReported() throws {
        let payload = try #require(PermissionPrompt.followUp(.answeredInTerminal, to: try input(), builder: builder))
        let event = try EventParser.parse(payload).get()
        #expect(event.title == "Answered in the terminal: Bash rm -rf build" && event.status == .inProgress)
    }
}
