import Foundation
/// Codex's `config.toml`: a top-level `notify = ["…/timeline", "hook", "codex"]` line (Codex runs one
/// notify program; another one already there is left alone and reported).
enum CodexConfigInstaller {
    static func install(_ text: String?, words: [String]) throws(HookInstallError) -> String {
        let line = "notify = [" + words.map(JSONValue.quote).joined(separator: ", ") + "]"
        let original = text ?? ""
        if let existing = notifyLine(original) {
            if existing.line == line { return original }
            guard existing.isTimeline else {
                throw HookInstallError("config.toml already has a notify program (\(existing.line)); Codex runs only one: remove it first")
            }
            return replacingLine(original, at: existing.range, with: line + "\n")
        }
        // Top-level keys must come before the first table: the line goes first.
        return line + "\n" + original
    }

    static func uninstall(_ text: String) -> String {
        guard let existing = notifyLine(text), existing.isTimeline else { return text }
        return replacingLine(text, at: existing.range, with: "")
    }

    static func installed(_ text: String) -> [String] {
        notifyLine(text).flatMap { $0.isTimeline ? [$0.line] : nil } ?? []
    }

    /// The top-level `notify = …` line (before any `[table]`), its range including the newline.
    private static func notifyLine(_ text: String) -> (line: String, range: Range<String.Index>, isTimeline: Bool)? {
        var start = text.startIndex
        while start < text.endIndex {
            let end = text[start...].firstIndex(of: "\n").map { text.index(after: $0) } ?? text.endIndex
            let line = text[start..<end].trimmingCharacters(in: .whitespacesAndNewlines)
            if line.hasPrefix("[") { return nil }
            if line.hasPrefix("notify"), line.dropFirst(6).trimmingCharacters(in: .whitespaces).hasPrefix("=") {
                let words = line.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
                let isTimeline = HookCommandLine.isTimeline(HookCommandLine.join(words), agent: .codex)
                return (line, start..<end, isTimeline)
            }
            start = end
        }
        return nil
    }

    private static func replacingLine(_ text: String, at range: Range<String.Index>, with line: String) -> String {
        var out = text
        out.replaceSubrange(range, with: line)
        return out
    }
}

/// Codex's `hooks.json` (Claude Code's shape): the lifecycle between turns. The finished turn itself comes
/// from `notify`, so `Stop` is not hooked.
enum CodexHooksInstaller {
    static let events = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PermissionRequest"]

    /// `PermissionRequest` may be answered from the timeline: its timeout covers `permissionWait` seconds.
    static func installer(permissionWait: Int64 = PermissionPrompt.defaultWaitSeconds) -> MatcherGroupInstaller {
        MatcherGroupInstaller(
            agent: .codex, events: events,
            entry: { command, event in
                let timeout = event == "PermissionRequest" ? PermissionPrompt.hookTimeout(wait: permissionWait) : 10
                return [("type", .string("command")), ("command", .string(command)), ("timeout", .number(timeout))]
            },
            matcher: { _ in nil })
    }
}
