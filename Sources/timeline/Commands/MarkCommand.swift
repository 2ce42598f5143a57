import ArgumentParser
import Foundation
import TimelineCore
import TimelineStore

/// `timeline mark TASK…`: marks tasks (as `m` in the TUI does); `--remove` unmarks, no task lists the marks.
struct MarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mark",
        abstract: "Mark tasks (as m in the TUI), unmark them with --remove, or list the marked tasks.")

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("Task ids; none: list the marked tasks.", valueName: "task-id"))
    var taskIDs: [String] = []

    @Flag(help: "Unmark the tasks instead.")
    var remove = false

    func run() throws {
        if taskIDs.isEmpty {
            guard let timeline = try store.openForReading() else { return }
            for id in try timeline.markedTaskIDs() { print(DisplayText.sanitize(id)) }
            return
        }
        let timeline = try store.openForWriting()
        for id in taskIDs {
            guard try timeline.row(taskID: id) != nil || remove else {
                throw CommandFailure("no task \"\(DisplayText.sanitize(id))\" in \(timeline.path): see `timeline list`")
            }
            try timeline.setMark(taskID: id, marked: !remove)
        }
    }
}
