/// Cursor's `hooks.json`: `{"version": 1, "hooks": {"EVENT": [{"command": …, "timeout"?}]}}`;
/// `beforeShellExecution`'s timeout (seconds) covers `permissionWait`, the time it may wait for an answer.
enum CursorHooksInstaller {
    static func install(_ text: String?, command: String,
                        permissionWait: Int64 = PermissionPrompt.defaultWaitSeconds) throws(HookInstallError) -> String {
        var editor = try removing(from: JSONTextEditor(text.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 } ?? "{}"),
                                  keep: command)
        let unit = editor.unit
        func entry(_ event: String) -> JSONValue {
            guard event == CursorShellPrompt.event else { return .object([("command", .string(command))]) }
            return .object([("command", .string(command)), ("timeout", .number(PermissionPrompt.hookTimeout(wait: permissionWait)))])
        }
        if editor.root.member("version") == nil, editor.root.members.isEmpty {
            try editor.addMember("version", value: { _ in "1" }, to: editor.root)
        }
        for event in CursorHooks.installedEvents {
            guard let hooks = editor.root.member("hooks") else {
                try editor.addMember("hooks", value: { indent in
                    JSONValue.object(CursorHooks.installedEvents.map { ($0, .array([entry($0)])) }).text(indent: indent, unit: unit)
                }, to: editor.root)
                break
            }
            guard let list = hooks.member(event) else {
                try editor.addMember(event, value: { JSONValue.array([entry(event)]).text(indent: $0, unit: unit) }, to: hooks)
                continue
            }
            if list.elements.contains(where: { $0.member("command")?.string == command }) { continue }
            try editor.append({ entry(event).text(indent: $0, unit: unit) }, to: list)
        }
        return withNewline(editor.text, like: text)
    }

    /// `text` without timeline's entries; the containers in `userHad` stay even when that empties them.
    static func uninstall(_ text: String, userHad: UserHookContainers = UserHookContainers()) throws(HookInstallError) -> String {
        withNewline(try removing(from: JSONTextEditor(text), keep: nil, userHad: userHad).text, like: text)
    }

    static func installed(_ text: String) throws(HookInstallError) -> [String] {
        let hooks = try JSONTextEditor(text).root.member("hooks")
        return (hooks?.members ?? []).flatMap { $0.value.elements.compactMap { $0.member("command")?.string } }
            .filter { HookCommandLine.isTimeline($0, agent: .cursor) }
    }

    /// Event lists and the `hooks` object emptied by the removal go too, unless the user had them (`userHad`).
    private static func removing(from start: JSONTextEditor, keep: String?,
                                 userHad: UserHookContainers = UserHookContainers()) throws(HookInstallError) -> JSONTextEditor {
        var editor = start
        while let hooks = editor.root.member("hooks") {
            let stale = hooks.members.enumerated().lazy.compactMap { memberIndex, member -> (Int, Int)? in
                member.value.elements.firstIndex {
                    guard let command = $0.member("command")?.string else { return false }
                    return HookCommandLine.isTimeline(command, agent: .cursor) && command != keep
                }.map { (memberIndex, $0) }
            }.first
            guard let (memberIndex, index) = stale else { break }
            let list = hooks.members[memberIndex].value
            if list.elements.count > 1 || userHad.events.contains(hooks.members[memberIndex].key) {
                try editor.removeElement(index, of: list)
            } else if hooks.members.count > 1 || userHad.hooks {
                try editor.removeMember(memberIndex, of: hooks)
            } else if let index = editor.root.members.firstIndex(where: { $0.value === hooks }) {
                try editor.removeMember(index, of: editor.root)
            }
        }
        return editor
    }
}
