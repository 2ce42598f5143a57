@testable import AgentHooks
import Foundation
import StrictJSON
import Testing
import TimelineCore

/// Each agent's answerable prompt: the question made from its documented payload, the decision it reads
/// for each answer, and nothing (or its own "ask") when no answer comes.
@Suite("Prompt adapters")
struct PromptAdapterTests {
    let replyQueue = "https://sqs.eu-west-1.amazonaws.com/123456789012/devbox-replies"

    struct StubWaiter: PermissionAnswerWaiter {
        var answer: PermissionAnswer?
        func answer(to question: PermissionQuestion, until deadline: Date) -> PermissionAnswer? { answer }
    }

    func adapter(_ agent: HookAgent, _ fixture: String) throws -> any PromptAdapter {
        try #require(PromptAdapters.adapter(for: agent, input: try FixtureFiles.input(fixture)), "\(fixture)")
    }

    func question(_ agent: HookAgent, _ fixture: String) throws -> (any PromptAdapter, PermissionQuestion, Event) {
        let prompt = try adapter(agent, fixture)
        let question = try #require(prompt.question(builder: HookEventBuilder(agent: agent, host: "devbox"), replyQueueURL: replyQueue))
        let event = try EventParser.parse(question.payload).get()
        #expect(event.status == .needsInput && event.id == question.questionID)
        #expect(question.payload.contains("\"reply_to\":\"\(replyQueue)\""))
        return (prompt, question, event)
    }

    func object(_ json: String?) throws -> [String: Any] {
        let text = try #require(json)
        return try #require(JSONReader.object(from: Array(text.utf8)))
    }

    /// Runs the flow with `answer` coming back; returns the output and the events published.
    func run(_ prompt: any PromptAdapter, _ agent: HookAgent, answer: PermissionAnswer?) throws -> (String?, [Event]) {
        let published = Recorder()
        let flow = PermissionFlow(waiter: StubWaiter(answer: answer), publishQuestion: { published.append($0); return true },
                                  publish: { published.append($0) })
        let output = flow.ask(prompt, builder: HookEventBuilder(agent: agent, host: "devbox"), replyQueueURL: replyQueue, wait: 1)
        return (output, try published.values.map { try EventParser.parse($0).get() })
    }

    // MARK: Claude Code AskUserQuestion

    @Test func askUserQuestionOffersEachOption() throws {
        let (_, question, event) = try question(.claude, "claude/PreToolUse-AskUserQuestion.json")
        #expect(question.actions == ["option-1", "option-2"])
        #expect(event.title == "Waiting for you: Which database should the service use?" && event.taskID == "claude:abc123")
        #expect(event.interaction.actions.map(\.label) == ["Postgres", "SQLite"])
        #expect(event.body.contains("2. SQLite: One file, no server"))
    }

    @Test func theChosenLabelGoesBackAsUpdatedInput() throws {
        let (prompt, question, _) = try question(.claude, "claude/PreToolUse-AskUserQuestion.json")
        let answer = try #require(PermissionAnswer(action: "option-2", text: nil, offered: question.actions))
        let output = try object(prompt.decision(answer, question: question))
        let specific = try #require(output["hookSpecificOutput"] as? [String: Any])
        #expect(specific["hookEventName"] as? String == "PreToolUse" && specific["permissionDecision"] as? String == "allow")
        let updated = try #require(specific["updatedInput"] as? [String: Any])
        #expect(updated["answers"] as? [String: String] == ["Which database should the service use?": "SQLite"])
        let questions = try #require(updated["questions"] as? [[String: Any]])
        #expect(questions.count == 1 && (questions[0]["options"] as? [Any])?.count == 2, "the original input is kept")
        #expect(prompt.decision(.choice("option-3"), question: question) == nil)
        #expect(PermissionAnswer(action: "option-3", text: nil, offered: question.actions) == nil, "only offered options")
        #expect(PermissionAnswer(action: nil, text: "MySQL", offered: question.actions) == nil, "no free text")
    }

    @Test func askUserQuestionAnsweredOrWithdrawn() throws {
        let prompt = try adapter(.claude, "claude/PreToolUse-AskUserQuestion.json")
        let (output, events) = try run(prompt, .claude, answer: .choice("option-1"))
        #expect(output?.contains("\"Which database should the service use?\":\"Postgres\"") == true)
        #expect(events.map(\.title) == ["Waiting for you: Which database should the service use?",
                                        "Chose Postgres from the timeline: Which database should the service use?"])
        let (none, withdrawn) = try run(prompt, .claude, answer: nil)
        #expect(none == nil && prompt.unanswered == nil, "no output: Claude asks in its terminal")
        #expect(withdrawn.last?.title == "Waiting for you in the terminal: Which database should the service use?")
        #expect(withdrawn.last?.interaction.actions.isEmpty == true)
    }

    @Test func optionLabelsAreSanitizedAndRedactedOnTheTimelineOnly() throws {
        var fields = try FixtureFiles.input("claude/PreToolUse-AskUserQuestion.json").fields
        var toolInput = try #require(fields["tool_input"] as? [String: Any])
        var question = try #require((toolInput["questions"] as? [[String: Any]])?.first)
        question["options"] = [["label": "Use AKIAIOSFODNN7EXAMPLE", "description": ""], ["label": "\u{1b}[31mRed\u{1b}[0m", "description": ""],
                               ["label": String(repeating: "数据库", count: 10), "description": ""]]
        toolInput["questions"] = [question]
        fields["tool_input"] = toolInput
        let prompt = try #require(PromptAdapters.adapter(for: .claude, input: HookInput(fields: fields)))
        let asked = try #require(prompt.question(builder: HookEventBuilder(agent: .claude, host: "devbox"), replyQueueURL: replyQueue))
        let labels = try EventParser.parse(asked.payload).get().interaction.actions.map(\.label)
        #expect(labels[0] == "Use [REDACTED]" && !labels[1].contains("\u{1b}"))
        #expect(DisplayText.width(of: labels[2]) <= 36, "a wide label is cut to fit a button")
        let decision = try #require(prompt.decision(.choice("option-1"), question: asked))
        #expect(decision.contains("Use AKIAIOSFODNN7EXAMPLE"), "Claude gets its own label back, as it asked")
    }

    @Test func severalQuestionsAtOnceAreOnlyReported() throws {
        var fields = try FixtureFiles.input("claude/PreToolUse-AskUserQuestion.json").fields
        var toolInput = try #require(fields["tool_input"] as? [String: Any])
        let one = try #require((toolInput["questions"] as? [Any])?.first)
        toolInput["questions"] = [one, one]
        fields["tool_input"] = toolInput
        let input = HookInput(fields: fields)
        #expect(PromptAdapters.adapter(for: .claude, input: input) == nil)
        let report = try #require(ClaudeHooks.report(input, options: HookOptions()))
        #expect(report.status == .needsInput && !report.isStep)
    }

    // MARK: Codex CLI PermissionRequest

    @Test func codexPermissionRequestIsAllowOrDenyInClaudesShape() throws {
        var fields = try FixtureFiles.input("codex/hooks-PermissionRequest.json").fields
        fields["permission_suggestions"] = [["type": "addRules", "behavior": "allow", "destination": "session"]]
        let prompt = try #require(PromptAdapters.adapter(for: .codex, input: HookInput(fields: fields)))
        let question = try #require(prompt.question(builder: HookEventBuilder(agent: .codex, host: "devbox"), replyQueueURL: replyQueue))
        #expect(question.actions == ["allow", "deny"], "Codex refuses permission updates: no allow for the session")
        let event = try EventParser.parse(question.payload).get()
        #expect(event.title == "Waiting for you: Bash rm -f /tmp/example" && event.taskID == "codex:019a-codex-session")
        func decision(_ answer: PermissionAnswer) throws -> [String: Any] {
            let specific = try #require(try object(prompt.decision(answer, question: question))["hookSpecificOutput"] as? [String: Any])
            #expect(specific["hookEventName"] as? String == "PermissionRequest")
            return try #require(specific["decision"] as? [String: Any])
        }
        #expect(try decision(.allowOnce).keys.sorted() == ["behavior"])
        let deny = try decision(.deny(message: "not on prod"))
        #expect(deny["behavior"] as? String == "deny" && deny["message"] as? String == "not on prod")
        let (none, events) = try run(prompt, .codex, answer: nil)
        #expect(none == nil && events.last?.title == "Waiting for you in the terminal: Bash rm -f /tmp/example")
    }

    // MARK: Cursor beforeShellExecution

    @Test func cursorShellCommandsAreAllowedDeniedOrLeftToCursor() throws {
        let (prompt, question, event) = try question(.cursor, "cursor/beforeShellExecution.json")
        #expect(question.actions == ["allow", "deny"])
        #expect(event.title == "Waiting for you: Shell pnpm test" && event.body.contains("$ pnpm test") && event.taskID == "cursor:conv-9")
        #expect(try object(prompt.decision(.allowOnce, question: question)).keys.sorted() == ["permission"])
        #expect(try object(prompt.decision(.allowOnce, question: question))["permission"] as? String == "allow")
        let deny = try object(prompt.decision(.deny(message: "use pnpm test:unit"), question: question))
        #expect(deny["permission"] as? String == "deny" && deny["agent_message"] as? String == "use pnpm test:unit")
        #expect(deny["user_message"] as? String == "Denied from the timeline")
        #expect(try object(prompt.unanswered)["permission"] as? String == "ask", "no answer: Cursor asks its user")
        let (none, events) = try run(prompt, .cursor, answer: nil)
        #expect(none == nil && events.count == 2)
        #expect(PromptAdapters.adapter(for: .cursor, input: try FixtureFiles.input("cursor/afterShellExecution.json")) == nil)
    }

    // MARK: opencode permission.asked

    @Test func opencodePermissionsAreOnceAlwaysOrReject() throws {
        for fixture in ["opencode/permission.asked.json", "opencode/permission.asked-patterns.json"] {
            let (prompt, question, _) = try question(.opencode, fixture)
            #expect(question.actions == ["allow", "allow-session", "deny"])
            #expect(try object(prompt.decision(.allowOnce, question: question))["response"] as? String == "once")
            #expect(try object(prompt.decision(.allowForSession, question: question))["response"] as? String == "always")
            #expect(try object(prompt.decision(.deny(message: nil), question: question))["response"] as? String == "reject")
            let (none, events) = try run(prompt, .opencode, answer: nil)
            #expect(none == nil && prompt.unanswered == nil, "no answer: opencode's own prompt stays")
            #expect(events.last?.interaction.actions.isEmpty == true)
        }
        let (_, _, event) = try question(.opencode, "opencode/permission.asked-patterns.json")
        #expect(event.title == "Waiting for you: bash rm -rf vendor" && event.body.contains("- rm *"), "what always allows")
    }

    @Test func theOpencodePluginGivesTheAnswerToOpencode() {
        let plugin = OpencodeHooks.plugin(command: ["/opt/timeline", "hook", "opencode"])
        #expect(plugin.contains("postSessionIdPermissionsPermissionId") && plugin.contains("permissionID: properties.id"))
        #expect(plugin.contains("[\"once\", \"always\", \"reject\"]"))
    }

    @Test func notificationOnlyAgentsAndOtherEventsHaveNoPrompt() throws {
        #expect(PromptAdapters.adapter(for: .gemini, input: try FixtureFiles.input("gemini/Notification.json")) == nil)
        #expect(PromptAdapters.adapter(for: .claude, input: try FixtureFiles.input("claude/PreToolUse.json")) == nil)
        #expect(PromptAdapters.adapter(for: .codex, input: try FixtureFiles.input("codex/hooks-Stop.json")) == nil)
    }

    // MARK: Installers give the waiting hooks a timeout that covers the wait

    @Test func installedHooksWaitLongEnough() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("prompts-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        func installed(_ agent: HookAgent, file: Int = 0) throws -> [String: Any] {
            let location = try HookInstallLocation.all(agent: agent, scope: agent == .cursor ? .project : .user, home: directory.path,
                                                       project: directory.path, environment: [:])[file]
            let installer = HookInstaller(location: location, command: ["/opt/timeline", "hook", agent.rawValue], permissionWait: 300)
            let change = try installer.install()
            try installer.write(change)
            #expect(!(try installer.install().changed), "\(agent): a second install changes nothing")
            return try #require(try JSONSerialization.jsonObject(with: Data((change.after ?? "").utf8)) as? [String: Any])["hooks"]
                as? [String: Any] ?? [:]
        }
        let claude = try #require(try installed(.claude)["PreToolUse"] as? [[String: Any]])
        #expect(claude.count == 2 && claude[1]["matcher"] as? String == "AskUserQuestion")
        let ask = try #require((claude[1]["hooks"] as? [[String: Any]])?.first)
        #expect(ask["async"] == nil && ask["timeout"] as? Int == 330)
        #expect((claude[0]["hooks"] as? [[String: Any]])?.first?["async"] as? Bool == true, "reporting stays in the background")
        let codex = try #require(try installed(.codex, file: 1)["PermissionRequest"] as? [[String: Any]])
        #expect((codex[0]["hooks"] as? [[String: Any]])?.first?["timeout"] as? Int == 330)
        let cursor = try #require(try installed(.cursor)["beforeShellExecution"] as? [[String: Any]])
        #expect(cursor.first?["timeout"] as? Int == 330)
    }
}
