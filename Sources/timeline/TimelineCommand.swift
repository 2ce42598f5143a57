import ArgumentParser
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
        ]
    )

    /// `-V` is `--version` too (swift-argument-parser knows only the long form).
    static func main() {
        ProcessMemory.configure()
        let arguments = Array(CommandLine.arguments.dropFirst())
        main(arguments == ["-V"] ? ["--version"] : arguments)
    }
}
