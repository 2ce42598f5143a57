import Foundation
/// Settings in Claude Code's shape, also used by Gemini CLI: `{"hooks": {"EVENT": [{"matcher"?,
/// "hooks": [{"type": "command", "command": …, "timeout"?, "async"?}]}]}}`. Adds one matcher group per
/// event, removes only entries whose command is timeline's, and leaves every other byte alone.
struct MatcherGroupInstaller {
    var agent: HookAgent
    var events: [String]
    /// The hook entry timeline writes for `command` and `event`.
    var entry: (_ command: String, _ event: String) -> [(String, JSONValue)]
    /// The group's matcher for `event` (nil: none, which matches everything).
    var matcher: (_ event: String) -> String?

    func install(_ text: String?, command: String) throws(HookInstallError) -> String {
        var editor = try JSONTextEditor(text.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 } ?? "{}")
        editor = try removing(from: editor, keep: command)
        let unit = editor.unit
        func group(_ event: String) -> JSONValue {
            var members: [(String, JSONValue)] = []
            if let matcher = matcher(event) { members.append(("matcher", .string(matcher))) }
            members.append(("hooks", .array([.object(entry(command, event))])))
            return .object(members)
        }
        for event in events {
            guard let hooks = editor.root.member("hooks") else {
                try editor.addMember("hooks", value: { indent in
                    JSONValue.object(events.map { ($0, .array([group($0)])) }).text(indent: indent, unit: unit)
                }, to: editor.root)
                break
            }
            guard let list = hooks.member(event) else {
                try editor.addMember(event, value: { JSONValue.array([group(event)]).text(indent: $0, unit: unit) }, to: hooks)
                continue
            }
            if commands(in: list).contains(command) { continue }
            try editor.append({ group(event).text(indent: $0, unit: unit) }, to: list)
        }
        return withNewline(editor.text, like: text)
    }

    func uninstall(_ text: String) throws(HookInstallError) -> String {
        withNewline(try removing(from: JSONTextEditor(text), keep: nil).text, like: text)
    }

    /// Timeline's commands in the file.
    func installed(_ text: String) throws(HookInstallError) -> [String] {
        let editor = try JSONTextEditor(text)
        guard let hooks = editor.root.member("hooks") else { return [] }
        return hooks.members.flatMap { commands(in: $0.value) }.filter { HookCommandLine.isTimeline($0, agent: agent) }
    }

    private func commands(in list: JSONTextEditor.Node) -> [String] {
        list.elements.flatMap { $0.member("hooks")?.elements ?? [] }.compactMap { $0.member("command")?.string }
    }

    /// The editor with timeline's entries removed, except those running exactly `keep`; groups, event lists
    /// and the `hooks` object that become empty through this go too.
    private func removing(from start: JSONTextEditor, keep: String?) throws(HookInstallError) -> JSONTextEditor {
        var editor = start
        func isStale(_ node: JSONTextEditor.Node) -> Bool {
            guard let command = node.member("command")?.string else { return false }
            return HookCommandLine.isTimeline(command, agent: agent) && command != keep
        }
        while true {
            guard let hooks = editor.root.member("hooks") else { return editor }
            var edited = false
            search: for (memberIndex, member) in hooks.members.enumerated() {
                for (groupIndex, group) in member.value.elements.enumerated() {
                    guard let inner = group.member("hooks") else { continue }
                    guard let staleIndex = inner.elements.firstIndex(where: isStale) else { continue }
                    if inner.elements.count > 1 {
                        try editor.removeElement(staleIndex, of: inner)
                    } else if member.value.elements.count > 1 {
                        try editor.removeElement(groupIndex, of: member.value)
                    } else if hooks.members.count > 1 {
                        try editor.removeMember(memberIndex, of: hooks)
                    } else if let index = editor.root.members.firstIndex(where: { $0.value === hooks }) {
                        try editor.removeMember(index, of: editor.root)
                    }
                    edited = true
                    break search
                }
            }
            if !edited { return editor }
        }
    }
}

/// A file timeline created ends with a newline; an existing file keeps its own ending.
func withNewline(_ text: String, like original: String?) -> String {
    guard let original, !original.allSatisfy(\.isWhitespace) else { return text.hasSuffix("\n") ? text : text + "\n" }
    return text
}
