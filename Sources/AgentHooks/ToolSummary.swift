import Foundation
/// A tool call in words ("Bash: npm test", "Edit src/app.ts"), shared by the agents whose hooks name the
/// tool and pass its input as an object (Claude Code, Gemini CLI, Cursor, opencode).
public enum ToolSummary {
    /// `tool` and the most telling part of its input: the command, the file, the pattern, the URL.
    public static func describe(tool: String, input: HookInput?, cwd: String? = nil) -> String {
        let name = friendlyName(tool)
        guard let input else { return name }
        if let command = input.string(["command", "cmd"]) {
            return "\(name): \(TextCut.firstLine(command, limit: 120))"
        }
        if let path = input.string(["file_path", "filePath", "path", "notebook_path", "absolute_path", "file"]) {
            return "\(name) \(relative(path, to: cwd))"
        }
        if let detail = input.string(["pattern", "query", "url", "description", "prompt", "skill", "subject"]) {
            return "\(name): \(TextCut.firstLine(detail, limit: 120))"
        }
        return name
    }

    /// Tool names as people say them: `mcp__github__create_issue` → `github create_issue`,
    /// `run_shell_command` → `Shell`.
    static func friendlyName(_ tool: String) -> String {
        if tool.hasPrefix("mcp__") {
            return tool.dropFirst(5).split(separator: "_", omittingEmptySubsequences: false)
                .joined(separator: "_").replacingOccurrences(of: "__", with: " ")
        }
        switch tool {
        case "run_shell_command", "shell", "bash": return "Bash"
        case "replace", "edit", "edit_file", "search_replace": return "Edit"
        case "write_file", "write": return "Write"
        case "read_file", "read", "read_many_files": return "Read"
        default: return tool
        }
    }

    /// `path` relative to `cwd` when inside it.
    static func relative(_ path: String, to cwd: String?) -> String {
        guard let cwd, !cwd.isEmpty else { return path }
        let base = cwd.hasSuffix("/") ? cwd : cwd + "/"
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }
}
