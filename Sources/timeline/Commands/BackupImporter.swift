import Foundation
import TimelineCore
import TimelineStore

/// Restores the records of a backup (after its first line) in batches and keeps the tallies.
struct BackupImporter {
    /// The longest backup line read: a rejected message kept whole by an import (up to 16 MiB) is a third
    /// longer in base64.
    static let maxLineBytes = 24 << 20

    let store: TimelineStore
    let batchSize: Int
    var progress: ProgressBar
    private var batch: [BackupRecord] = []
    private var counts = RestoreCounts()
    private var records = 0

    init(store: TimelineStore, batchSize: Int, progress: ProgressBar) {
        self.store = store
        self.batchSize = batchSize
        self.progress = progress
    }

    /// Decodes one line; a line that is not a record stops the restore once the records before it are
    /// stored (blank lines are skipped).
    mutating func add(_ line: LineReader.Line) throws {
        if line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) && !line.isTruncated { return }
        let record: BackupRecord
        do throws(BackupLineError) {
            guard !line.isTruncated else {
                throw BackupLineError("the line is \(line.fullLength) bytes, longer than any record")
            }
            record = try BackupLine.decode(line.bytes)
        } catch {
            try flush()
            throw ImportError.backupLine(line.number, error.reason)
        }
        batch.append(record)
        records += 1
        if batch.count >= batchSize { try flush() }
    }

    private mutating func flush() throws {
        guard !batch.isEmpty else { return }
        counts = counts + (try store.restore(batch))
        batch.removeAll(keepingCapacity: true)
    }

    /// Stores the last batch and brings the search index up to date.
    mutating func finish() throws {
        try flush()
        try store.flushSearchIndex()
    }

    func summary(source: String) -> String {
        "Restored \(records) backup record\(records == 1 ? "" : "s") from \(DisplayText.escaped(source)): "
            + "\(counts.events) events (\(counts.duplicateEvents) already stored), \(counts.rejected) rejected messages, "
            + "\(counts.marks) marks, \(counts.readMarks) read marks, \(counts.replies) replies added."
    }
}
