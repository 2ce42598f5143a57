import ArgumentParser

@main
struct TimelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "A live, searchable timeline of what background AI agents are doing.",
        subcommands: [ImportCommand.self, ListCommand.self, HistoryCommand.self, RejectedCommand.self, TUICommand.self]
    )
}
