import ArgumentParser
import Foundation
import TimelineRuntime

@main
struct TimelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "A live, searchable timeline of what background AI agents are doing.",
        version: TimelineVersion.string,
        subcommands: [
            TUICommand.self, PollCommand.self, DrainCommand.self, PublishCommand.self, DoctorCommand.self,
            ImportCommand.self, ListCommand.self, HistoryCommand.self, RejectedCommand.self, ReplyCommand.self,
            AskCommand.self, SetupCommand.self, ConfigCommand.self, ExportCommand.self, PruneCommand.self, MarkCommand.self,
            StatusCommand.self, HookCommand.self, HooksCommand.self,
            HelpKeysCommand.self,
        ]
    )

    /// `-V` is `--version` too (swift-argument-parser knows only the long form).
    static func main() {
        ProcessMemory.configure()
        let given = Array(CommandLine.arguments.dropFirst())
        let arguments = given == ["-V"] ? ["--version"] : given
        // An agent runs `hook` once per tool call: it is parsed alone, without the whole command tree.
        let isHook = arguments.first == HookCommand.configuration.commandName
        let root: any ParsableCommand.Type = isHook ? HookCommand.self : TimelineCommand.self
        var command: ParsableCommand
        do {
            command = try root.parseAsRoot(isHook ? Array(arguments.dropFirst()) : arguments)
        } catch {
            let message = root.fullMessage(for: error)
            if root.exitCode(for: error) != .success, let hint = TypoHint.hint(for: message, arguments: arguments) {
                FileHandle.standardError.write(Data((message + "\n" + hint + "\n").utf8))
                Foundation.exit(root.exitCode(for: error).rawValue)
            }
            root.exit(withError: error)
        }
        do {
            try command.run()
        } catch {
            exit(withError: error)
        }
    }
}
