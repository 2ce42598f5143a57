import ArgumentParser
import Foundation
import TimelineRuntime

@main
struct TimelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "A live, searchable timeline of what background AI agents are doing.",
        version: TimelineVersion.string,
        groupedSubcommands: [
            CommandGroup(name: "Watching", subcommands: [
                TUICommand.self, StatusCommand.self, ListCommand.self, HistoryCommand.self, RejectedCommand.self,
            ]),
            CommandGroup(name: "Storing", subcommands: [PollCommand.self, DrainCommand.self, ImportCommand.self]),
            CommandGroup(name: "Agents and answers", subcommands: [
                PublishCommand.self, AskCommand.self, ReplyCommand.self, HookCommand.self, HooksCommand.self,
            ]),
            CommandGroup(name: "Keeping", subcommands: [ExportCommand.self, MarkCommand.self, PruneCommand.self]),
            CommandGroup(name: "Setting up", subcommands: [
                SetupCommand.self, ConfigCommand.self, DoctorCommand.self, HelpKeysCommand.self,
            ]),
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
        // Parse errors (usage, `--version`, a `ValidationError`) and help (ArgumentParser's own help command)
        // are ArgumentParser's to print; what one of the commands declared here throws from `run()`, or from
        // `validate()` when it is not ArgumentParser's own, goes to `fail`.
        var command: ParsableCommand
        do {
            command = try root.parseAsRoot(isHook ? Array(arguments.dropFirst()) : arguments)
        } catch {
            if let thrown = ValidateFailure.thrown(in: error) { fail(thrown, root: root) }
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
            guard declares(type(of: command), from: root) else { root.exit(withError: error) }
            fail(error, root: root)
        }
    }

    /// Whether `command` is `root` or one of the subcommands under it (not ArgumentParser's help command).
    static func declares(_ command: any ParsableCommand.Type, from root: any ParsableCommand.Type) -> Bool {
        command == root || root.configuration.subcommands.contains { declares(command, from: $0) }
    }

    /// The one error path of every command's `run()`: `error: …` on stderr and the exit code
    /// (`FailureReport`); the ArgumentParser errors a command throws (`ExitCode` after it spoke,
    /// `ValidationError`, `CleanExit`) as `root` prints them.
    static func fail(_ error: any Error, root: any ParsableCommand.Type) -> Never {
        guard let report = FailureReport(error) else { root.exit(withError: error) }
        standardError(report.line)
        Foundation.exit(report.exitCode)
    }
}
