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
    /// More groups for `event`, each with its own matcher and entry (a foreground hook for one tool).
    var extraGroups: (_ command: String, _ event: String) -> [(matcher: String, entry: [(String, JSONValue)])] = { _, _ in [] }

    func install(_ text: String?, command: String) throws(HookInstallError) -> String {
        var editor = try JSONTextEditor(text.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 } ?? "{}")
        editor = try removing(from: editor, keep: command)
        let unit = editor.unit
        func groups(_ event: String) -> [(matcher: String?, value: JSONValue)] {
            let all: [(matcher: String?, entry: [(String, JSONValue)])] =
                [(matcher(event), entry(command, event))] + extraGroups(command, event).map { ($0.matcher, $0.entry) }
            return all.map { matcher, entry in
                var members: [(String, JSONValue)] = []
                if let matcher { members.append(("matcher", .string(matcher))) }
                members.append(("hooks", .array([.object(entry)])))
                return (matcher, .object(members))
            }
        }
        for event in events {
            guard let hooks = editor.root.member("hooks") else {
                try editor.addMember("hooks", value: { indent in
                    JSONValue.object(events.map { ($0, .array(groups($0).map(\.value))) }).text(indent: indent, unit: unit)
                }, to: editor.root)
                break
            }
            guard hooks.member(event) != nil else {
                try editor.addMember(event, value: { JSONValue.array(groups(event).map(\.value)).text(indent: $0, unit: unit) }, to: hooks)
                continue
            }
            for group in groups(event) {
                guard let list = editor.root.member("hooks")?.member(event) else { break }
                let present = list.elements.contains { element in
                    element.member("matcher")?.string == group.matcher && commands(inGroup: element).contains(command)
                }
                if present { continue }
                try editor.append({ group.value.text(indent: $0, unit: unit) }, to: list)
            }
        }
        return withNewline(editor.text, like: text)
    }

    /// `text` without timeline's entries; the containers in `userHad` stay even when that empties them.
    func uninstall(_ text: String, userHad: UserHookContainers = UserHookContainers()) throws(HookInstallError) -> String {
        withNewline(try removing(from: JSONTextEditor(text), keep: nil, userHad: userHad).text, like: text)
    }

    /// Timeline's commands in the file.
    func installed(_ text: String) throws(HookInstallError) -> [String] {
        let editor = try JSONTextEditor(text)
        guard let hooks = editor.root.member("hooks") else { return [] }
        return hooks.members.flatMap { commands(in: $0.value) }.filter { HookCommandLine.isTimeline($0, agent: agent) }
    }

    private func commands(in list: JSONTextEditor.Node) -> [String] {
        list.elements.flatMap { commands(inGroup: $0) }
    }

    private func commands(inGroup group: JSONTextEditor.Node) -> [String] {
        (group.member("hooks")?.elements ?? []).compactMap { $0.member("command")?.string }
    }

    /// The editor with timeline's entries removed, except those running exactly `keep`; groups, event lists
    /// and the `hooks` object that become empty through this go too, unless the user had them (`userHad`).
    private func removing(from start: JSONTextEditor, keep: String?,
                          userHad: UserHookContainers = UserHookContainers()) throws(HookInstallError) -> JSONTextEditor {
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
                    } else if member.value.elements.count > 1 || userHad.events.contains(member.key) {
                        try editor.removeElement(groupIndex, of: member.value)
                    } else if hooks.members.count > 1 || userHad.hooks {
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
