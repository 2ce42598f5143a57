import AgentHooks
import Foundation
import Testing
import TimelineCore

@Suite("Hook event builder")
struct HookEventBuilderTests {
    let builder = HookEventBuilder(agent: .claude, host: "devbox", now: { Date(timeIntervalSince1970: 1_800_000_000) },
                                   newID: { "e-1" })

    @Test func taskAgentAndProjectFollowTheRules() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("builder-\(UUID())")
        let nested = directory.appendingPathComponent("my-repo/src/lib")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("my-repo/.git"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let report = HookReport(session: "s-9", cwd: nested.path, title: "Bash: npm test", status: .inProgress, isStep: true)
        let event = try EventParser.parse(try #require(builder.payload(for: report))).get()
        #expect(event.taskID == "claude:s-9" && event.agentID == "claude@devbox")
        #expect(event.category == "my-repo", "the git top-level's name")
        #expect(event.isStep && event.status == .inProgress && event.id == "e-1")
        #expect(ProjectName.of(cwd: "/nowhere/at/all-of-it") == "all-of-it")
    }

    @Test func titlesAndBodiesAreSanitizedRedactedAndCut() throws {
        let long = "head " + String(repeating: "x", count: 20_000) + " tail"
        let report = HookReport(session: "s", cwd: nil, title: "Bash: \u{1B}[31mexport TOKEN=abcdef123456\u{1B}[0m",
                                body: "AKIAIOSFODNN7EXAMPLE\n" + long, status: .inProgress)
        let event = try EventParser.parse(try #require(builder.payload(for: report))).get()
        #expect(!event.title.contains("\u{1B}") && !event.title.contains("abcdef123456") && event.title.contains("[REDACTED]"))
        #expect(!event.body.contains("AKIAIOSFODNN7EXAMPLE"))
        #expect(event.body.count < 4_100 && event.body.hasSuffix(" tail") && event.body.contains("characters cut"))
        #expect(event.category == nil)
    }
}
