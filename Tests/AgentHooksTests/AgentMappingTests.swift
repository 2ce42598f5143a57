import AgentHooks
import Foundation
import Testing
import TimelineCore

/// Every fixture mapped: the title in words, the real state, steps as steps.
@Suite("Agent payload mapping")
struct AgentMappingTests {
    struct Expectation {
        var title: String
        var status: Status
        var step: Bool
        var session: String
    }

    static let claude: [String: Expectation] = [
        "SessionStart": .init(title: "Session started (startup)", status: .info, step: false, session: "abc123"),
        "UserPromptSubmit": .init(title: "Working on a new prompt", status: .inProgress, step: false, session: "abc123"),
        "PreToolUse": .init(title: "Bash: npm test", status: .inProgress, step: true, session: "abc123"),
        "PreToolUse-AskUserQuestion": .init(title: "Asking you: Which database should the service use?", status: .info, step: true,
                                            session: "abc123"),
        "PreToolUse-Edit": .init(title: "Edit src/app.ts", status: .inProgress, step: true, session: "abc123"),
        "PostToolUse": .init(title: "Finished Bash: npm test", status: .inProgress, step: true, session: "abc123"),
        "PostToolUseFailure": .init(title: "Tool failed: Bash: npm test", status: .inProgress, step: true, session: "abc123"),
        "PermissionRequest": .init(title: "Waiting for you: Bash rm -rf build", status: .needsInput, step: false, session: "abc123"),
        "Notification": .init(title: "Waiting for you: Claude needs your permission to use Bash", status: .needsInput, step: false,
                              session: "abc123"),
        "Notification-idle": .init(title: "Claude is waiting for your input", status: .info, step: true, session: "abc123"),
        "SubagentStart": .init(title: "Subagent started: Explore", status: .inProgress, step: true, session: "abc123"),
        "SubagentStop": .init(title: "Subagent finished: Explore", status: .inProgress, step: true, session: "abc123"),
        "PreCompact": .init(title: "Compacting the conversation (auto)", status: .inProgress, step: true, session: "abc123"),
        "Stop": .init(title: "Done: All 42 tests pass now.", status: .success, step: false, session: "abc123"),
        "Stop-background": .init(title: "Waiting for 2 background tasks: npm run dev", status: .inProgress, step: false,
                                 session: "abc123"),
        "StopFailure": .init(title: "Failed: rate limit", status: .error, step: false, session: "abc123"),
        "SessionEnd": .init(title: "Session ended (prompt input exit)", status: .info, step: true, session: "abc123"),
    ]

    static let gemini: [String: Expectation] = [
        "SessionStart": .init(title: "Session started (startup)", status: .info, step: false, session: "g-77"),
        "BeforeAgent": .init(title: "Working on a new prompt", status: .inProgress, step: false, session: "g-77"),
        "BeforeTool": .init(title: "Bash: npm run build", status: .inProgress, step: true, session: "g-77"),
        "AfterTool": .init(title: "Finished Write header.css", status: .inProgress, step: true, session: "g-77"),
        "Notification": .init(title: "Waiting for you: Allow run_shell_command: rm -rf dist?", status: .needsInput, step: false,
                              session: "g-77"),
        "AfterAgent": .init(title: "Done: The header is sticky now.", status: .success, step: false, session: "g-77"),
        "SessionEnd": .init(title: "Session ended (exit)", status: .info, step: true, session: "g-77"),
    ]

    static let cursor: [String: Expectation] = [
        "beforeSubmitPrompt": .init(title: "Working on a new prompt", status: .inProgress, step: false, session: "conv-9"),
        "beforeShellExecution": .init(title: "Shell: pnpm test", status: .inProgress, step: true, session: "conv-9"),
        "afterShellExecution": .init(title: "Finished Shell: pnpm test", status: .inProgress, step: true, session: "conv-9"),
        "afterFileEdit": .init(title: "Edit src/cart.tsx", status: .inProgress, step: true, session: "conv-9"),
        "afterMCPExecution": .init(title: "Finished MCP linear_create_issue", status: .inProgress, step: true, session: "conv-9"),
        "stop": .init(title: "Done", status: .success, step: false, session: "conv-9"),
        "stop-error": .init(title: "Failed: the agent stopped with an error", status: .error, step: false, session: "conv-9"),
    ]

    static let opencode: [String: Expectation] = [
        "tool.execute.before": .init(title: "Bash: go test ./...", status: .inProgress, step: true, session: "ses_01"),
        "tool.execute.after": .init(title: "Finished Bash", status: .inProgress, step: true, session: "ses_01"),
        "todo.updated": .init(title: "To-do list: 1 of 2 done", status: .inProgress, step: true, session: "ses_01"),
        "permission.asked": .init(title: "Waiting for you: rm -rf vendor", status: .needsInput, step: false, session: "ses_01"),
        "permission.asked-patterns": .init(title: "Waiting for you: bash rm -rf vendor", status: .needsInput, step: false,
                                           session: "ses_01"),
        "session.idle": .init(title: "Done", status: .success, step: false, session: "ses_01"),
        "session.error": .init(title: "Failed: APIError", status: .error, step: false, session: "ses_01"),
    ]

    func check(_ folder: String, _ table: [String: Expectation], map: (HookInput) -> HookReport?) throws {
        let names = try FixtureFiles.names(in: folder)
        #expect(Set(names.map { String($0.dropLast(5)) }) == Set(table.keys), "every fixture has an expectation")
        for name in names {
            let input = try FixtureFiles.input("\(folder)/\(name)")
            #expect(input.string("_source") != nil, "\(name) names its source")
            let report = try #require(map(input), "\(folder)/\(name)")
            let want = try #require(table[String(name.dropLast(5))])
            #expect(report.title == want.title, "\(folder)/\(name)")
            #expect(report.status == want.status, "\(folder)/\(name)")
            #expect(report.isStep == want.step, "\(folder)/\(name)")
            #expect(report.session == want.session, "\(folder)/\(name)")
        }
    }

    @Test func claudeCode() throws {
        try check("claude", Self.claude) { ClaudeHooks.report($0, options: HookOptions()) }
    }

    @Test func geminiCLI() throws {
        try check("gemini", Self.gemini) { GeminiHooks.report($0, options: HookOptions()) }
    }

    @Test func cursor() throws {
        try check("cursor", Self.cursor) { CursorHooks.report($0, options: HookOptions()) }
    }

    @Test func opencode() throws {
        try check("opencode", Self.opencode) { OpencodeHooks.report($0, options: HookOptions()) }
    }

    @Test func codexNotifyAndHooks() throws {
        let notify = try FixtureFiles.input("codex/agent-turn-complete.json")
        let done = try #require(CodexHooks.reports(notify, options: HookOptions()).first)
        #expect(done.title == "Done: Rename complete and verified `cargo build` succeeds.")
        #expect(done.status == .success && done.session == "b5f6c1c2-1111-2222-3333-444455556666" && done.cwd == "/home/u/src/api")
        #expect(!done.body.contains("Rename `foo`"), "the typed prompt is left out by default")
        let withPrompts = try #require(CodexHooks.reports(notify, options: HookOptions(includePrompts: true)).first)
        #expect(withPrompts.body.contains("Rename `foo` to `bar`"))
        let hook = try #require(CodexHooks.reports(try FixtureFiles.input("codex/hooks-Stop.json"), options: HookOptions()).first)
        #expect(hook.title == "Done: Done with the refactor" && hook.status == .success)
    }

    @Test func promptsArePublishedOnlyWhenChosen() throws {
        let input = try FixtureFiles.input("claude/UserPromptSubmit.json")
        let hidden = try #require(ClaudeHooks.report(input, options: HookOptions()))
        #expect(hidden.body.isEmpty && !hidden.title.contains("login"))
        let shown = try #require(ClaudeHooks.report(input, options: HookOptions(includePrompts: true)))
        #expect(shown.title == "Working: Fix the login bug")
        #expect(shown.body.contains("and add a test"))
    }

    @Test func worktreeCreateIsNeverReported() {
        let input = HookInput(fields: ["session_id": "s", "hook_event_name": "WorktreeCreate"])
        #expect(ClaudeHooks.report(input, options: HookOptions()) == nil)
        #expect(!ClaudeHooks.installedEvents.contains("WorktreeCreate"))
    }

    @Test func stopWithoutTheMessageReadsTheTranscript() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("transcript-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let transcript = directory.appendingPathComponent("t.jsonl")
        try """
            {"type":"user","message":{"role":"user","content":"hi"}}
            {"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Deployed to staging.\\nAll checks green."}]}}
            {"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"Bash","input":{}}]}}

            """.write(to: transcript, atomically: true, encoding: .utf8)
        let input = HookInput(fields: ["session_id": "s", "hook_event_name": "Stop", "transcript_path": transcript.path])
        let report = try #require(ClaudeHooks.report(input, options: HookOptions(), lastAssistantText: ClaudeTranscript.lastAssistantText(path:)))
        #expect(report.title == "Done: Deployed to staging.")
    }

    @Test func aiderWaitsForTheUser() {
        let report = AiderHooks.report(cwd: "/home/u/src/tool", parentProcess: 4242)
        #expect(report.session == "pid-4242" && report.status == .needsInput)
    }
}
