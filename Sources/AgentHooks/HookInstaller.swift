import Foundation

/// Adds timeline's hooks to an agent's settings file and takes them out again, keeping every other byte;
/// a second install changes nothing. Before the first change a copy of the file is kept beside it.
public struct HookInstaller: Sendable {
    public var location: HookInstallLocation
    /// The command line's words: the running binary's absolute path, `hook`, the agent, flags.
    public var command: [String]
    /// Seconds a prompt answered from the timeline may wait for it (its hook's timeout covers it).
    public var permissionWait: Int64

    public init(location: HookInstallLocation, command: [String], permissionWait: Int64 = PermissionPrompt.defaultWaitSeconds) {
        self.location = location
        self.command = command
        self.permissionWait = permissionWait
    }

    /// A file's content before and after (after nil: the file goes).
    public struct Change: Sendable, Equatable {
        public var before: String?
        public var after: String?
        public var changed: Bool { before != after }
    }

    public func install() throws(HookInstallError) -> Change {
        let before = try read()
        let line = HookCommandLine.join(command)
        let after: String
        if location.file == .codexHooks { return Change(before: before, after: try CodexHooksInstaller.installer(permissionWait: permissionWait).install(before, command: line)) }
        switch location.agent {
        case .claude: after = try ClaudeSettingsInstaller.installer(permissionWait: permissionWait).install(before, command: line)
        case .gemini: after = try GeminiSettingsInstaller.installer.install(before, command: line)
        case .cursor: after = try CursorHooksInstaller.install(before, command: line, permissionWait: permissionWait)
        case .codex: after = try CodexConfigInstaller.install(before, words: command)
        case .opencode: after = try OpencodePluginInstaller.install(before, words: command)
        case .aider: after = try AiderConfigInstaller.install(before, command: line)
        }
        return Change(before: before, after: after)
    }

    public func uninstall() throws(HookInstallError) -> Change {
        guard let before = try read() else { return Change(before: nil, after: nil) }
        let after: String?
        let userHad = UserHookContainers(original: backup())
        if location.file == .codexHooks {
            let remaining = try CodexHooksInstaller.installer().uninstall(before, userHad: userHad)
            return Change(before: before, after: isLeftover(remaining) ? nil : remaining)
        }
        switch location.agent {
        case .claude: after = try ClaudeSettingsInstaller.installer().uninstall(before, userHad: userHad)
        case .gemini: after = try GeminiSettingsInstaller.installer.uninstall(before, userHad: userHad)
        case .cursor: after = try CursorHooksInstaller.uninstall(before, userHad: userHad)
        case .codex: after = CodexConfigInstaller.uninstall(before)
        case .opencode: after = OpencodePluginInstaller.installed(before).isEmpty ? before : nil
        case .aider: after = AiderConfigInstaller.uninstall(before)
        }
        return Change(before: before, after: isLeftover(after) ? nil : after)
    }

    /// The copy of the file kept before timeline's first change (`write`).
    private var backupPath: String { location.path + ".timeline-backup" }

    /// The file as it was before timeline first changed it (nil: timeline created it, or the copy is gone).
    private func backup() -> String? {
        FileManager.default.contents(atPath: backupPath).map { String(decoding: $0, as: UTF8.self) }
    }

    /// True for what is left of a file timeline created (no backup beside it) once its entries are gone.
    private func isLeftover(_ text: String?) -> Bool {
        guard let text, !FileManager.default.fileExists(atPath: backupPath) else { return false }
        if text.allSatisfy(\.isWhitespace) { return true }
        guard [.claude, .gemini, .cursor].contains(location.agent) || location.file == .codexHooks, let editor = try? JSONTextEditor(text) else { return false }
        let keys = editor.root.members.map(\.key)
        return keys.isEmpty || (location.agent == .cursor && keys == ["version"])
    }

    /// Timeline's entries in the file (empty when there is none or no file).
    public func installedCommands() throws(HookInstallError) -> [String] {
        guard let text = try read() else { return [] }
        if location.file == .codexHooks { return try CodexHooksInstaller.installer().installed(text) }
        switch location.agent {
        case .claude: return try ClaudeSettingsInstaller.installer().installed(text)
        case .gemini: return try GeminiSettingsInstaller.installer.installed(text)
        case .cursor: return try CursorHooksInstaller.installed(text)
        case .codex: return CodexConfigInstaller.installed(text)
        case .opencode: return OpencodePluginInstaller.installed(text)
        case .aider: return AiderConfigInstaller.installed(text)
        }
    }

    /// Writes `change` (atomically, keeping the file's mode); returns the backup made before the first
    /// change of an existing file, if this write made one.
    @discardableResult
    public func write(_ change: Change) throws(HookInstallError) -> String? {
        guard change.changed else { return nil }
        let path = location.path
        let manager = FileManager.default
        var backup: String?
        if change.before != nil {
            let copy = backupPath
            if !manager.fileExists(atPath: copy) {
                do { try manager.copyItem(atPath: path, toPath: copy) } catch {
                    throw HookInstallError("cannot back up \(path): \(error.localizedDescription)")
                }
                backup = copy
            }
        }
        guard let after = change.after else {
            do { try manager.removeItem(atPath: path) } catch {
                throw HookInstallError("cannot remove \(path): \(error.localizedDescription)")
            }
            return backup
        }
        let directory = (path as NSString).deletingLastPathComponent
        let mode = (try? manager.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.int16Value ?? 0o644
        do {
            try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let temporary = path + ".timeline-tmp-\(getpid())"
            guard manager.createFile(atPath: temporary, contents: Data(after.utf8), attributes: [.posixPermissions: mode]) else {
                throw HookInstallError("cannot write \(temporary)")
            }
            if rename(temporary, path) != 0 {
                unlink(temporary)
                throw HookInstallError("cannot replace \(path): \(String(cString: strerror(errno)))")
            }
        } catch let error as HookInstallError {
            throw error
        } catch {
            throw HookInstallError("cannot write \(path): \(error.localizedDescription)")
        }
        return backup
    }

    private func read() throws(HookInstallError) -> String? {
        guard FileManager.default.fileExists(atPath: location.path) else { return nil }
        guard let data = FileManager.default.contents(atPath: location.path),
              let text = String(data: data, encoding: .utf8) else {
            throw HookInstallError("cannot read \(location.path) as UTF-8 text")
        }
        return text
    }
}
