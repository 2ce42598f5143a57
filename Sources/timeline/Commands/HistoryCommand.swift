import ArgumentParser
import Foundation
import TimelineCore
import TimelineStore

/// `timeline history TASK_ID`: every event of one task, newest first.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Print every event of one task, newest first (the first is the task's timeline row).")

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("The task id, or any unique beginning of one (as `list` prints it cut, with or without the …).",
                                 valueName: "task-id"))
    var taskID: String

    @Flag(help: "JSON lines (one object per event), for jq.")
    var json = false

    @Option(help: "Print at most this many events.")
    var limit: Int = 1_000

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1.") }
        guard !taskID.isEmpty else { throw ValidationError("The task id must not be empty.") }
    }

    func run() throws {
        guard let timeline = try store.openForReading() else { return }
        var events = try timeline.history(taskID: taskID, limit: limit)
        if events.isEmpty {
            // An id as `list` printed it, cut ("deploy-billing-v1.3…"), or any unique beginning of one.
            let prefix = taskID.hasSuffix("…") ? String(taskID.dropLast()) : taskID
            let matches = try timeline.taskIDs(startingWith: prefix, limit: 6)
            switch matches.count {
            case 0:
                throw CommandFailure("No events for task \"\(DisplayText.escaped(taskID))\".")
            case 1:
                events = try timeline.history(taskID: matches[0], limit: limit)
            default:
                let shown = matches.prefix(5).map { "\"\(DisplayText.escaped($0))\"" }.joined(separator: ", ")
                throw CommandFailure("\"\(DisplayText.escaped(taskID))\" begins more than one task id: \(shown)"
                    + (matches.count > 5 ? ", …" : "") + ". Give more of it.")
            }
        }
        if json {
            for event in events { print(try EventJSONLine.line(EventJSONLine.object(event))) }
            return
        }
        let table = EventTable(color: TerminalStyle.stdoutWantsColor, width: TerminalStyle.columns(of: STDOUT_FILENO),
                               showTask: false)
        print(table.header)
        for event in events { print(table.row(event)) }
    }
}
