@testable import AgentHooks
import Foundation
import Testing

@Suite("Hook installers")
struct HookInstallerTests {
    let command = ["/opt/timeline/bin/timeline", "hook"]

    func installer(_ agent: HookAgent, _ text: String?) throws -> (HookInstaller, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("install-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let location = try HookInstallLocation.resolve(agent: agent, scope: agent == .cursor ? .project : .user,
                                                       home: directory.path, project: directory.path, environment: [:])
        if let text {
            try FileManager.default.createDirectory(atPath: (location.path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try text.write(toFile: location.path, atomically: true, encoding: .utf8)
        }
        return (HookInstaller(location: location, command: command + [agent.rawValue]), directory)
    }

    /// Install, install again (no byte changes), uninstall (back to the original bytes).
    func roundTrip(_ agent: HookAgent, _ original: String?) throws -> String {
        let (installer, directory) = try installer(agent, original)
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try installer.install()
        #expect(first.changed)
        try installer.write(first)
        #expect(!(try installer.install().changed), "a second install changes no byte")
        #expect(!(try installer.installedCommands().isEmpty))
        let removed = try installer.uninstall()
        #expect(removed.after == original, "\(agent): uninstall restores the file")
        if original != nil {
            #expect(FileManager.default.contents(atPath: installer.location.path + ".timeline-backup").map {
                String(decoding: $0, as: UTF8.self) } == original, "a backup before the first change")
        }
        return first.after ?? ""
    }

    @Test func claudeKeepsEveryOtherByte() throws {
        let original = """
            {
                "model": "opus",
                "permissions": {"allow": ["Bash(npm test:*)"]},
                "hooks": {
                    "Stop": [
                        {"hooks": [{"type": "command", "command": "say done"}]}
                    ],
                    "WorktreeCreate": []
                }
            }

            """
        let after = try roundTrip(.claude, original)
        #expect(after.hasPrefix("{\n    \"model\": \"opus\",\n    \"permissions\": {\"allow\": [\"Bash(npm test:*)\"]},"))
        #expect(after.contains("{\"hooks\": [{\"type\": \"command\", \"command\": \"say done\"}]},\n            {"))
        let settings = try #require(try JSONSerialization.jsonObject(with: Data(after.utf8)) as? [String: Any])
        let hooks = try #require(settings["hooks"] as? [String: Any])
        #expect((hooks["WorktreeCreate"] as? [Any])?.isEmpty == true, "never Claude's WorktreeCreate")
        for event in ClaudeHooks.installedEvents { #expect(hooks[event] != nil, "\(event)") }
        let stop = try #require(hooks["Stop"] as? [[String: Any]])
        let entry = try #require((stop.last?["hooks"] as? [[String: Any]])?.first)
        #expect(entry["command"] as? String == "/opt/timeline/bin/timeline hook claude")
        #expect(entry["async"] == nil, "Stop runs in the foreground")
        let pre = try #require(((hooks["PreToolUse"] as? [[String: Any]])?.first?["hooks"] as? [[String: Any]])?.first)
        #expect(pre["async"] as? Bool == true && pre["timeout"] as? Int == 10)
        let permission = try #require(((hooks["PermissionRequest"] as? [[String: Any]])?.first?["hooks"] as? [[String: Any]])?.first)
        #expect(permission["async"] == nil && permission["timeout"] as? Int == 150, "covers the 2-minute wait for an answer")
    }

    @Test func claudeWithoutAFileAndWithAnEmptyOne() throws {
        _ = try roundTrip(.claude, nil)
        _ = try roundTrip(.claude, "{}\n")
    }

    /// An empty `hooks` object or event list the user had before the install is theirs: the uninstall keeps it.
    @Test func uninstallKeepsTheUsersEmptyHooksAndEventLists() throws {
        _ = try roundTrip(.claude, "{\n  \"hooks\": {}\n}\n")
        _ = try roundTrip(.claude, "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"Stop\": [],\n    \"PreToolUse\": []\n  }\n}\n")
        _ = try roundTrip(.gemini, "{\n  \"theme\": \"Dracula\",\n  \"hooks\": {}\n}\n")
        _ = try roundTrip(.cursor, "{\n  \"version\": 1,\n  \"hooks\": {}\n}\n")
        _ = try roundTrip(.cursor, "{\n  \"version\": 1,\n  \"hooks\": {\n    \"stop\": []\n  }\n}\n")
    }

    @Test func anOldBinaryPathIsReplacedNotDuplicated() throws {
        let (old, directory) = try installer(.claude, nil)
        defer { try? FileManager.default.removeItem(at: directory) }
        try old.write(try old.install())
        let moved = HookInstaller(location: old.location, command: ["/usr/local/bin/timeline", "hook", "claude"])
        let change = try moved.install()
        #expect(change.changed)
        #expect(!(change.after ?? "").contains("/opt/timeline") && (change.after ?? "").contains("/usr/local/bin/timeline"))
    }

    @Test func geminiCursorCodexAiderOpencode() throws {
        let gemini = try roundTrip(.gemini, "{\n  \"theme\": \"Dracula\"\n}\n")
        #expect(gemini.contains("\"timeout\": 5000") && gemini.contains("\"matcher\": \"*\""))
        let cursor = try roundTrip(.cursor, nil)
        #expect(cursor.contains("\"version\": 1") && cursor.contains("afterFileEdit"))
        _ = try roundTrip(.cursor, "{\n  \"version\": 1,\n  \"hooks\": {\n    \"stop\": [{\"command\": \"./audit.sh\"}]\n  }\n}\n")
        let codex = try roundTrip(.codex, "model = \"o3\"\n\n[projects.\"/src\"]\ntrust_level = \"trusted\"\n")
        #expect(codex.hasPrefix("notify = [\"/opt/timeline/bin/timeline\", \"hook\", \"codex\"]\nmodel = \"o3\""))
        _ = try roundTrip(.aider, "model: sonnet\n")
        _ = try roundTrip(.opencode, nil)
    }

    @Test func codexGetsItsHooksFileBesideConfigToml() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("codex-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let locations = try HookInstallLocation.all(agent: .codex, scope: .user, home: directory.path, project: "/p",
                                                    environment: [:])
        #expect(locations.map(\.path) == [directory.path + "/.codex/config.toml", directory.path + "/.codex/hooks.json"])
        #expect(locations[1].notes.contains { $0.contains("/hooks") }, "tells the user to trust the hook")
        let installer = HookInstaller(location: locations[1], command: command + ["codex"])
        let change = try installer.install()
        try installer.write(change)
        let hooks = try #require(try JSONSerialization.jsonObject(with: Data((change.after ?? "").utf8)) as? [String: Any])
        #expect(Set(((hooks["hooks"] as? [String: Any]) ?? [:]).keys) == ["SessionStart", "UserPromptSubmit", "PreToolUse",
                                                                             "PostToolUse", "PermissionRequest"])
        #expect(!(try installer.install().changed))
        #expect(try installer.uninstall().after == nil, "the file timeline created goes")
    }

    @Test func anotherNotifyProgramIsLeftAloneAndReported() throws {
        let (codex, directory) = try installer(.codex, "notify = [\"notify-send\", \"codex\"]\n")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: HookInstallError.self) { try codex.install() }
    }

    @Test func brokenJSONIsNotOverwritten() throws {
        let (claude, directory) = try installer(.claude, "{\"hooks\": ")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: HookInstallError.self) { try claude.install() }
    }

    /// Strings in a settings file are read by the one JSON reader: an escaped key is the same key, and a
    /// string JSON does not allow (an unknown escape, a raw line break) makes the file one not to touch.
    @Test func settingsStringsAreReadByTheStrictJSONReader() throws {
        let (escaped, directory) = try installer(.claude, "{\n  \"ho\\u006fks\": {\n    \"Custom\": []\n  },\n  \"x\": \"\\ud83d\\ude80 \\\"q\\\" \\/\"\n}\n")
        defer { try? FileManager.default.removeItem(at: directory) }
        let after = try #require(try escaped.install().after)
        // Still two top-level members (indented 2): the hooks went into the escaped key's object.
        #expect(after.components(separatedBy: "\n  \"").count - 1 == 2 && after.contains("\"ho\\u006fks\": {"), "\(after)")
        #expect(after.contains("\"Custom\": []") && after.contains("\"SessionStart\""), "\(after)")
        for broken in ["{\"a\": \"\\x\"}\n", "{\"a\": \"line\nbreak\"}\n"] {
            let (claude, directory) = try installer(.claude, broken)
            defer { try? FileManager.default.removeItem(at: directory) }
            #expect(throws: HookInstallError.self, "\(broken.debugDescription)") { try claude.install() }
        }
    }

    @Test func commandLinesAreQuotedAndRecognized() {
        let line = HookCommandLine.join(["/home/me/My Tools/timeline", "hook", "claude"])
        #expect(line == "'/home/me/My Tools/timeline' hook claude")
        #expect(HookCommandLine.isTimeline(line, agent: .claude))
        #expect(!HookCommandLine.isTimeline(line, agent: .gemini))
        #expect(!HookCommandLine.isTimeline("/usr/bin/other hook claude", agent: .claude))
    }
}
