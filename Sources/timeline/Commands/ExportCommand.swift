import ArgumentParser
import Foundation
import StrictJSON
import TimelineCore
import TimelineStore

/// `timeline export`: tasks' full histories as JSON lines (re-importable), CSV or a Markdown report.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export the full history of tasks as JSON lines, CSV or a Markdown report, or back up the database.",
        discussion: """
            Covers every task matching QUERY (the search syntax of `timeline list`), narrowed by --task and \
            --marked. JSON lines and CSV list the events in arrival order; Markdown task by task. JSON lines are the events exactly as received \
            (unknown fields too): `timeline import FILE` stores them again, unchanged. Without --output the \
            export goes to standard output (on a terminal, characters a terminal could act on are escaped). \
            A file written with --output is created 0600 and replaced whole only when the export succeeds.

            --format backup writes the whole database (it takes no query, --task or --marked) as JSON lines: \
            the events as received with when and how they arrived (receive time, SQS message id, sent time, \
            receive count), rejected messages with their exact bytes, marks, read state and replies with their \
            delivery outcome. `timeline import FILE` restores it into a new or existing database; importing it \
            again changes nothing.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case jsonl, csv, markdown, backup }

    @OptionGroup var store: StoreOptions

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Only tasks matching this query.", valueName: "query"))
    var queryWords: [String] = []

    @Option(name: .customLong("task"), help: ArgumentHelp("Only this task (repeatable).", valueName: "id"))
    var taskIDs: [String] = []

    @Flag(help: "Only marked tasks (m in the TUI, or `timeline mark`).")
    var marked = false

    @Option(help: ArgumentHelp("jsonl, csv, markdown or backup.", valueName: "format"))
    var format: Format

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    var queryText: String { queryWords.filter { $0 != "--" }.joined(separator: " ") }

    func validate() throws {
        try QueryWords.validate(queryWords)
        if let problem = TimelineQuery.parse(queryText).problems.first {
            throw ValidationError("Query: \(DisplayText.sanitize(problem)).")
        }
        if format == .backup, !queryText.isEmpty || !taskIDs.isEmpty || marked {
            throw ValidationError("--format backup covers the whole database: it takes no query, --task or --marked.")
        }
    }

    func run() throws {
        try export()
    }

    private func export() throws {
        guard let timeline = try store.openForReading() else { return }
        let selection = ExportSelection(query: TimelineQuery.parse(queryText), taskIDs: taskIDs.isEmpty ? nil : taskIDs,
                                        markedOnly: marked)
        let sink = try ExportSink(path: output)
        if format == .backup { return try backUp(timeline, to: sink) }
        var writer = ExportWriter(format: format, terminal: output == nil && TerminalStyle.isTerminal(STDOUT_FILENO))
        var events = 0
        var tasks = Set<String>()
        try sink.write(writer.header)
        try timeline.forEachEvent(in: selection, groupedByTask: format == .markdown) { event, seq in
            events += 1
            tasks.insert(event.taskID)
            if let text = try writer.add(event, seq: seq) { try sink.write(text) }
        }
        try sink.write(writer.finish())
        try sink.commit()
        if events == 0 { standardError("Nothing to export: no task matches.") }
        if let output { standardError("Exported \(events) events of \(tasks.count) tasks to \(output).") }
    }
}

extension ExportCommand {
    /// Writes the whole database as a backup (`BackupLine`).
    private func backUp(_ timeline: TimelineStore, to sink: ExportSink) throws {
        var counts: [String: Int] = [:]
        try sink.write(BackupLine.header)
        try timeline.forEachBackupRecord { record in
            counts[record.kind, default: 0] += 1
            try sink.write(BackupLine.encode(record))
        }
        try sink.commit()
        let summary = ["event", "rejected", "mark", "read", "reply"].map { "\(counts[$0, default: 0]) \($0)" }
        if let output { standardError("Backed up \(summary.joined(separator: ", ")) records to \(output).") }
    }
}

/// Turns events, task by task, into the chosen format (a backup is written by `backUp`, not record by record).
struct ExportWriter {
    let format: ExportCommand.Format
    /// Writing to a terminal: escape what a terminal could act on.
    let terminal: Bool
    private var taskEvents: [(event: Event, seq: Int64)] = []
    private var lastTaskID: String?
    private var markdown = MarkdownReport.continuing()

    init(format: ExportCommand.Format, terminal: Bool) {
        self.format = format
        self.terminal = terminal
    }

    static let csvColumns = ["id", "task_id", "agent_id", "status", "category", "title", "body", "progress", "timestamp", "seq"]

    var header: String {
        switch format {
        case .csv: Self.csvColumns.joined(separator: ",") + "\r\n"
        case .markdown: MarkdownReport().text
        case .jsonl, .backup: ""
        }
    }

    /// Text to write for one more event (nil: buffered).
    mutating func add(_ event: Event, seq: Int64) throws -> String? {
        let newTask = lastTaskID != event.taskID
        lastTaskID = event.taskID
        switch format {
        case .jsonl:
            return (terminal ? JSONWriter.escaping(json: event.rawJSON, TerminalSafety.isUnsafe) : event.rawJSON) + "\n"
        case .csv:
            let fields = [event.id, event.taskID, event.agentID, event.status.rawValue, event.category ?? "", event.title,
                          event.body, event.progress.map(Self.number) ?? "", TimeFormat.iso8601(micros: event.timestampMicros),
                          String(seq)]
            return fields.map { CSVCell.field(terminal ? DisplayText.sanitize($0) : $0) }.joined(separator: ",") + "\r\n"
        case .backup:
            preconditionFailure("a backup is written by ExportCommand.backUp")
        case .markdown:
            var flushed: String?
            if newTask, !taskEvents.isEmpty { flushed = flushTask() }
            taskEvents.append((event, seq))
            return flushed
        }
    }

    /// What is left to write at the end.
    mutating func finish() -> String {
        guard format == .markdown else { return "" }
        return flushTask()
    }

    private mutating func flushTask() -> String {
        markdown.addTask(taskEvents)
        taskEvents = []
        defer { markdown = MarkdownReport.continuing() }
        return markdown.text
    }

    /// `40` for whole numbers, else `40.5`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// Standard output, or a file written beside its final path (0600) and renamed into place on success.
final class ExportSink {
    private let path: String?
    private let temporary: String?
    private let handle: FileHandle

    init(path: String?) throws {
        self.path = path
        guard let path else {
            temporary = nil
            handle = FileHandle.standardOutput
            return
        }
        let temporary = path + ".partial-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw CommandFailure("cannot write \(path): \(String(cString: strerror(errno))). Check the directory exists and is writable.")
        }
        self.temporary = temporary
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    func write(_ text: String) throws {
        guard !text.isEmpty else { return }
        try handle.write(contentsOf: Data(text.utf8))
    }

    /// Moves the finished file into place.
    func commit() throws {
        guard let path, let temporary else { return }
        try handle.synchronize()
        guard rename(temporary, path) == 0 else {
            throw CommandFailure("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        if let temporary { unlink(temporary) }  // after a successful rename there is nothing left to remove
    }
}
