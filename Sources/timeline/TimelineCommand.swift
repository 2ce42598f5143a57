import ArgumentParser

@main
struct TimelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "A live, searchable timeline of what background AI agents are doing.",
        subcommands: [
            TUICommand.self, PollCommand.self, DrainCommand.self, PublishCommand.self, DoctorCommand.self,
            ImportCommand.self, ListCommand.self, HistoryCommand.self, RejectedCommand.self, SetupCommand.self,
            ConfigCommand.self, ExportCommand.self, PruneCommand.self, MarkCommand.self,
        ]
    )
}
