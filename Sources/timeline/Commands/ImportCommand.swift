import ArgumentParser
import Foundation
import TimelineCore
import TimelineStore

/// `timeline import [FILE|-]`: JSON lines through the same validation and ingest as the poller.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import events from a file of JSON lines (one event per line), or restore a backup.",
        discussion: """
            Every line goes through the same validation as messages from SQS. Valid events are stored (newest \
            wins per task; an event id already stored changes nothing); invalid lines are stored as rejected \
            messages with their reason (see `timeline rejected`). Blank lines are skipped. Exits 0 even when \
            lines are rejected, non-zero when the input cannot be read or the database cannot be written.

            A backup (`timeline export --format backup`, recognized by its first line) is restored whole: \
            events with when and how they arrived, rejected messages, marks, read state and replies, into a \
            new or existing database. What is already there is kept, so importing a backup twice changes \
            nothing. A line that is not a backup record stops the restore with an error (the records before \
            it are stored; importing again after fixing the file is safe).
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("File of JSON lines, or - for standard input.", valueName: "file"))
    var file: String = "-"

    /// 50,000 rather than 10,000: each transaction rewrites the index pages it touches (the event-id index
    /// takes random keys), so bigger transactions write fewer bytes per event, the more so the larger the
    /// database (1,000,000 events of the mix: 11 % less CPU). A batch holds the write lock for about 1.3 s of CPU
    /// time; a poller writing beside the import waits that long (its busy timeout is 5 s).
    @Option(help: "Lines stored per transaction.")
    var batchSize: Int = 50_000

    @Flag(help: "Do not list rejected lines on stderr (the summary still counts them).")
    var quiet = false

    func validate() throws {
        guard batchSize > 0 else { throw ValidationError("--batch-size must be at least 1.") }
        if file != "-", !FileManager.default.fileExists(atPath: file) {
            throw ValidationError("No such file: \(file)")
        }
    }

    func run() throws {
        let fd: Int32
        if file == "-" {
            fd = STDIN_FILENO
            if TerminalStyle.isTerminal(STDIN_FILENO) {
                standardError("timeline import: reading JSON lines from standard input (end with Ctrl-D; "
                    + "or pass a file: timeline import events.jsonl)")
            }
        } else {
            fd = open(file, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw ImportError.open(file, String(cString: strerror(errno))) }
        }
        defer { if fd != STDIN_FILENO { close(fd) } }

        var reader = LineReader(fd: fd)
        let first = try reader.next()
        let isBackup = try first.map(Self.isBackupHeader) ?? false
        let timeline = try store.openForWriting()
        let progress = ProgressBar(total: Self.regularFileSize(fd))
        let source = file == "-" ? "standard input" : file
        let summary = try timeline.bulkWrite {
            isBackup ? try restore(from: &reader, into: timeline, progress: progress, source: source)
                : try importEvents(from: reader, first: first, into: timeline, progress: progress, source: source)
        }
        print(summary)
    }

    /// Restores a backup's records; returns the summary.
    private func restore(from reader: inout LineReader, into timeline: TimelineStore, progress: ProgressBar,
                         source: String) throws -> String {
        reader.maxLineBytes = BackupImporter.maxLineBytes
        var restorer = BackupImporter(store: timeline, batchSize: batchSize, progress: progress)
        while let line = try reader.next() {
            try restorer.add(line)
            restorer.progress.update(done: reader.bytesRead, detail: "\(line.number) lines")
        }
        try restorer.finish()
        restorer.progress.clear()
        return restorer.summary(source: source)
    }

    /// Imports event lines, parsed in batches on their own thread; returns the summary.
    private func importEvents(from reader: LineReader, first: LineReader.Line?, into timeline: TimelineStore,
                              progress: ProgressBar, source: String) throws -> String {
        var importer = Importer(store: timeline, listRejects: !quiet, progress: progress)
        // A second, read-only connection for the reading thread's id lookups (without one, each batch looks
        // its ids up in its own transaction).
        let lookup = try? TimelineStore(path: timeline.path, readOnly: true)
        let batches = ImportBatchReader.start(reader: reader, first: first, batchSize: batchSize, lookup: lookup)
        defer { batches.cancel() }
        while let batch = batches.take() {
            try importer.store(batch)
        }
        try importer.finish()
        importer.progress.clear()
        return importer.summary(source: source)
    }

    /// Whether the first line names the backup format (`timeline export --format backup`); throws for a
    /// backup of a version this build does not read.
    private static func isBackupHeader(_ line: LineReader.Line) throws -> Bool {
        guard !line.isTruncated else { return false }
        switch BackupLine.header(of: line.bytes) {
        case .backup: return true
        case .notBackup: return false
        case .unsupportedVersion(let version): throw ImportError.backupVersion(version)
        }
    }

    /// The size of a regular file (for the progress bar), nil for pipes and terminals.
    private static func regularFileSize(_ fd: Int32) -> Int64? {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }
}

/// Stores the batches `ImportBatchReader` prepares, lists rejected lines and keeps the tallies.
private struct Importer {
    let store: TimelineStore
    let listRejects: Bool
    var progress: ProgressBar
    private var counts: [IngestOutcome: Int] = [:]
    private var lines = 0
    private var blank = 0
    private var rejectsListed = 0
    private static let rejectsListedAtMost = 20

    init(store: TimelineStore, listRejects: Bool, progress: ProgressBar) {
        self.store = store
        self.listRejects = listRejects
        self.progress = progress
    }

    /// Lists the batch's rejected lines, then stores it; throws the read error that ended the input after it
    /// (its lines are then not stored).
    mutating func store(_ batch: ImportBatch) throws {
        lines += batch.lines
        blank += batch.blank
        if listRejects {
            for rejection in batch.rejections { list(rejection) }
        }
        if let failure = batch.failure { throw failure }
        for outcome in try store.ingest(batch.items, deferSearchIndex: true) { counts[outcome, default: 0] += 1 }
        progress.update(done: batch.bytesRead, detail: "\(batch.lastLine) lines")
    }

    private mutating func list(_ rejection: ImportBatch.Rejection) {
        if rejectsListed < Self.rejectsListedAtMost {
            progress.clear()
            standardError("line \(rejection.line): rejected: \(DisplayText.escaped(rejection.reason))")
        } else if rejectsListed == Self.rejectsListedAtMost {
            progress.clear()
            standardError("(more rejected lines are not listed here: `timeline rejected` shows every one)")
        }
        rejectsListed += 1
    }

    /// Brings the search index up to date.
    func finish() throws {
        try store.flushSearchIndex()
    }

    func summary(source: String) -> String {
        func count(_ outcome: IngestOutcome) -> Int { counts[outcome, default: 0] }
        var text = "Imported \(lines) line\(lines == 1 ? "" : "s") from \(DisplayText.escaped(source)): "
            + "\(count(.inserted)) inserted, \(count(.replaced)) replaced, \(count(.keptOlder)) kept older, "
            + "\(count(.duplicate)) duplicates, \(count(.rejected)) rejected"
        if blank > 0 { text += ", \(blank) blank skipped" }
        return text + "."
    }
}
