import Foundation
import TimelineCore
import TimelineStore

/// Lines of a JSON-lines import read, validated and prepared for the store (`PreparedBatch`), a batch at a
/// time, with what the summary and the rejected-line listing need.
struct ImportBatch: Sendable {
    /// A line that failed validation: its number and why.
    struct Rejection: Sendable {
        var line: Int
        var reason: String
    }

    var items: PreparedBatch
    var rejections: [Rejection]
    /// Lines read for this batch (blank ones included), and the blank ones.
    var lines: Int
    var blank: Int
    /// The number of the batch's last line, and the input's bytes read so far (for progress).
    var lastLine: Int
    var bytesRead: Int64
    /// Why the input could not be read further; the batch's items are then not stored (as before it).
    var failure: ImportError?
}

/// Reads lines and hands them over as `ImportBatch`es of `batchSize` non-blank lines, on its own thread,
/// so the next batch is read, validated and prepared while the store writes this one.
enum ImportBatchReader {
    /// Starts reading on a new thread (from `first`, already read, then `reader`); batches arrive through
    /// the answer. A read error arrives as the last batch's `failure`. With `lookup` (a read-only store of
    /// the file written to), each batch's stored ids are looked up there too, on this thread
    /// (`TimelineStore.lookUpStoredKeys`); a batch whose lookup fails looks its ids up when it is stored.
    static func start(reader: LineReader, first: LineReader.Line?, batchSize: Int,
                      lookup: TimelineStore? = nil) -> BatchHandoff<ImportBatch> {
        let handoff = BatchHandoff<ImportBatch>()
        Thread {
            ThreadName.nameThisThread("tl-import-read")
            var reader = reader
            read(&reader, first: first, batchSize: batchSize, lookup: lookup, into: handoff)
        }.start()
        return handoff
    }

    private static func read(_ reader: inout LineReader, first: LineReader.Line?, batchSize: Int,
                             lookup: TimelineStore?, into handoff: BatchHandoff<ImportBatch>) {
        var items: [IngestItem] = []
        items.reserveCapacity(batchSize)
        var rejections: [ImportBatch.Rejection] = []
        var lines = 0, blank = 0, lastLine = 0
        func batch(failure: ImportError? = nil) -> ImportBatch {
            defer {
                items.removeAll(keepingCapacity: true)
                rejections = []
                (lines, blank) = (0, 0)
            }
            var prepared = PreparedBatch(failure == nil ? items : [])
            try? lookup?.lookUpStoredKeys(of: &prepared)
            return ImportBatch(items: prepared, rejections: rejections, lines: lines,
                               blank: blank, lastLine: lastLine, bytesRead: reader.bytesRead, failure: failure)
        }
        var line = first
        while true {
            guard let current = line else { break }
            lines += 1
            lastLine = current.number
            switch item(of: current) {
            case nil: blank += 1
            case let item?:
                if case .rejected(_, _, let reason) = item {
                    rejections.append(ImportBatch.Rejection(line: current.number, reason: reason))
                }
                items.append(item)
                if items.count >= batchSize, !handoff.put(batch()) { return }
            }
            do {
                line = try reader.next()
            } catch {
                _ = handoff.put(batch(failure: error as? ImportError ?? .read("\(error)")))
                handoff.finish()
                return
            }
        }
        if lines > 0, !handoff.put(batch()) { return }
        handoff.finish()
    }

    /// What to store for `line`: an event, or a rejected message with the reason; nil for a blank line.
    private static func item(of line: LineReader.Line) -> IngestItem? {
        if line.isTruncated {
            let reason = "message is \(line.fullLength) bytes, larger than the \(EventLimits.messageBytes)-byte limit"
                + " (only the first \(line.bytes.count) bytes are kept)"
            return .rejected(rawBytes: line.bytes, messageID: nil, reason: reason)
        }
        if line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
        switch EventParser.parse(line.bytes) {
        case .success(let event): return .event(event, messageID: nil)
        case .failure(let rejection): return .rejected(rawBytes: line.bytes, messageID: nil, reason: rejection.reason)
        }
    }
}
