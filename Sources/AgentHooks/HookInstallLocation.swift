import Foundation

/// Which of an agent's settings files: the user's, the project's (shared), or the project's local one.
public enum HookScope: String, CaseIterable, Sendable {
    case user, project, local
}

/// A settings file could not be read, understood or written.
public struct HookInstallError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Where an agent keeps the settings timeline's hooks go into, and what to tell the user afterwards.
public struct HookInstallLocation: Sendable, Equatable {
    /// Which kind of file: the agent's own settings, or Codex's `hooks.json` (beside its `config.toml`).
    public enum File: Sendable, Equatable { case settings, codexHooks }

    public var agent: HookAgent
    public var scope: HookScope
    public var path: String
    /// What the user still has to do (e.g. trust the hook).
    public var notes: [String]
    public var file: File = .settings

    /// Every file timeline's hooks for `agent` go into: the settings file, and for Codex its `hooks.json` too.
    public static func all(
        agent: HookAgent, scope: HookScope, home: String, project: String, environment: [String: String]
    ) throws(HookInstallError) -> [HookInstallLocation] {
        let main = try resolve(agent: agent, scope: scope, home: home, project: project, environment: environment)
        guard agent == .codex else { return [main] }
        let hooks = HookInstallLocation(
            agent: agent, scope: scope, path: (main.path as NSString).deletingLastPathComponent + "/hooks.json",
            notes: ["Codex runs new hooks only once you trust them: open /hooks in Codex and trust timeline's."],
            file: .codexHooks)
        return [main, hooks]
    }

    public static func resolve(
        agent: HookAgent, scope: HookScope, home: String, project: String, environment: [String: String]
    ) throws(HookInstallError) -> HookInstallLocation {
        func at(_ path: String, _ notes: [String] = []) -> HookInstallLocation {
            HookInstallLocation(agent: agent, scope: scope, path: path, notes: notes)
        }
        func unsupported() -> HookInstallError {
            HookInstallError("\(agent.displayName) has no \(scope.rawValue) settings file timeline can use")
        }
        switch (agent, scope) {
        case (.claude, .user): return at(home + "/.claude/settings.json")
        case (.claude, .project): return at(project + "/.claude/settings.json")
        case (.claude, .local): return at(project + "/.claude/settings.local.json")
        case (.gemini, .user): return at(home + "/.gemini/settings.json")
        case (.gemini, .project): return at(project + "/.gemini/settings.json")
        case (.cursor, .user): return at(home + "/.cursor/hooks.json")
        case (.cursor, .project): return at(project + "/.cursor/hooks.json")
        case (.codex, .user):
            let codexHome = environment["CODEX_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.codex"
            return at(codexHome + "/config.toml")
        case (.opencode, .user):
            let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
            return at(config + "/opencode/plugin/timeline.js")
        case (.opencode, .project): return at(project + "/.opencode/plugin/timeline.js")
        case (.aider, .user): return at(home + "/.aider.conf.yml")
        case (.aider, .project): return at(project + "/.aider.conf.yml")
        default: throw unsupported()
        }
    }
}

/// The command line written into settings files, and the test for "this entry is timeline's".
public enum HookCommandLine {
    /// `words` as one shell command line (words with anything but safe characters single-quoted).
    public static func join(_ words: [String]) -> String {
        words.map { word in
            let safe = !word.isEmpty && word.unicodeScalars.allSatisfy {
                CharacterSet.alphanumerics.contains($0) || "/._-+=:@%,".unicodeScalars.contains($0)
            }
            return safe ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }

    /// True for a command line that runs a `timeline` binary's `hook AGENT` (whatever its path or flags).
    public static func isTimeline(_ command: String, agent: HookAgent) -> Bool {
        let words = split(command)
        guard words.count >= 3 else { return false }
        return (words[0] as NSString).lastPathComponent == "timeline" && words[1] == "hook" && words[2] == agent.rawValue
    }

    /// Shell words, with single and double quotes (enough for the lines `join` writes).
    static func split(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character.isWhitespace {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
