import ArgumentParser
import Foundation
import TimelineCore
import TimelineStore

/// `timeline prune --older-than 30d`: deletes old events and rejected messages, then reclaims the space.
struct PruneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Delete events and rejected messages older than an age, then reclaim the space.",
        discussion: """
            An event's age is its timestamp; a rejected message's, when it was received. A task's newest event \
            is never deleted unless the whole task is older (then the task goes, with its mark). \
            --keep-running keeps tasks whose current status is in_progress whatever their age. The file is \
            then rebuilt (VACUUM) so it shrinks; that needs free disk space about the size of the database. \
            The `retention` setting makes `poll` and `tui` do the same once a day (without the rebuild).
            """)

    @OptionGroup var store: StoreOptions

    @Option(name: .customLong("older-than"), help: ArgumentHelp(
        "Age: \(DurationText.help).", valueName: "age"))
    var olderThan: String

    @Flag(name: .customLong("keep-running"), help: "Keep tasks that are still in progress, whatever their age.")
    var keepRunning = false

    func validate() throws {
        guard let seconds = DurationText.seconds(olderThan), seconds > 0 else {
            throw ValidationError("--older-than takes \(DurationText.help); not \"\(olderThan)\".")
        }
    }

    func run() throws {
        let seconds = DurationText.seconds(olderThan)!
        let path = try store.resolvedPath()
        guard FileManager.default.fileExists(atPath: path) else {
            standardError("No database at \(path): nothing to prune.")
            return
        }
        TimelineStore.runThisThreadAsUpkeep()  // a viewer open on the file keeps its cores
        let timeline = try store.openForWriting()
        let cutoff = TimeFormat.nowMicros() - seconds * 1_000_000
        let report = try timeline.prune(olderThan: cutoff, keepRunning: keepRunning, reclaimSpace: true)
        print("Deleted \(report.eventsDeleted) events (\(report.tasksDeleted) whole tasks) and "
            + "\(report.rejectedDeleted) rejected messages older than \(TimeFormat.absolute(micros: cutoff, utc: true)) UTC; "
            + "database \(Self.size(report.bytesBefore)) → \(Self.size(report.bytesAfter)).")
    }

    static func size(_ bytes: Int64) -> String {
        bytes >= 1 << 20 ? String(format: "%.1f MiB", Double(bytes) / 1_048_576) : "\((bytes + 1023) / 1024) KiB"
    }
}
