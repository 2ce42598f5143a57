import CSQLite

/// The searchable text of the timeline rows waiting for the full-text index, kept by a reading connection
/// between its searches.
///
/// A search covers waiting rows by testing their text (`FilterSQL`). In SQL that is a join to each row's
/// winning event and five LIKE tests, ~3 µs a row for a window and again for its count, paid on every
/// reload of an active search (the viewer reads again after every store change). Here each row's text is
/// read once per version (its winning `seq`: an event never changes) and tested in memory with the same
/// rules: a search then pays for the rows that changed since the last one, not for the whole backlog.
/// Reads go in read transactions (`startRead` … `endRead`): the waiting set is looked up in the same
/// snapshot as the query, and again only once the file changed (the connection's change token moved).
// @unchecked: only reached under the store's lock (reads hold it).
final class WaitingRowTexts: @unchecked Sendable {
    /// Most waiting rows kept in memory (~300 bytes each); with more (a bulk import in another process
    /// defers its indexing), searches test the waiting rows in SQL as before.
    static let rowLimit = TimelineStore.mostRowsWaiting + TimelineStore.searchIndexBacklog

    /// A waiting row's text at one version: the five searchable columns in `FilterSQL.anyTextColumn`'s order
    /// (title, body, agent id, task id, category) one after another in one buffer, so a search reads each
    /// row without a copy or a reference count per column.
    struct Row {
        var seq: Int64
        /// The columns' bytes with ASCII letters lowered: what an ASCII term (LIKE) is looked for in, and
        /// a non-ASCII one too: `tl_icontains` folds by Unicode lowercase, which maps a lowered ASCII letter
        /// as it maps the letter, and lowering keeps every other byte as stored.
        var lowered: [UInt8]
        /// Column `i` is `bounds[i] ..< bounds[i + 1]`.
        var bounds: [Int32]
        /// Bit `i` set: column `i` is NULL (it contains nothing, not even an empty term).
        var nullColumns: UInt8

        /// Whether column `column` is NULL.
        func isNull(_ column: Int) -> Bool { nullColumns & (1 << column) != 0 }

        /// The bytes of column `column` in `lowered`.
        func range(of column: Int) -> Range<Int> { Int(bounds[column])..<Int(bounds[column + 1]) }

        /// Whether `bytes` (a range of `lowered`) lie inside one non-NULL column.
        func insideOneColumn(_ bytes: Range<Int>) -> Bool {
            bounds.indices.dropLast().contains { !isNull($0) && range(of: $0).contains(bytes.lowerBound)
                && bytes.upperBound <= range(of: $0).upperBound }
        }

        /// Whether `test` holds for any non-NULL column.
        func anyColumn(_ test: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
            lowered.withUnsafeBufferPointer { buffer in
                bounds.indices.dropLast().contains { !isNull($0) && test(UnsafeBufferPointer(rebasing: buffer[range(of: $0)])) }
            }
        }
    }

    private var rows: [Int64: Row] = [:]
    /// The waiting rows in row id order with their text, as last looked up; nil until a search looks.
    private var waiting: (ids: [Int64], rows: [Row])?
    /// The change token of the snapshot `waiting` was looked up in.
    private var listedAt: Int64?
    /// Whether a read is under way (`startRead` … `endRead`).
    private var reading = false

    /// Begins a read inside its transaction, whose snapshot has change token `token`
    /// (`TimelineStore.changeToken`): the waiting set is looked up again when the file changed.
    func startRead(token: Int64) {
        if token != listedAt { (waiting, listedAt) = (nil, token) }
        reading = true
    }

    /// Ends the read.
    func endRead() {
        reading = false
    }

    /// Row ids of the waiting rows whose text contains every one of `terms` (case-insensitive substrings, as
    /// `FilterSQL.contains` tests them); nil outside a read, or when more rows wait than `rowLimit` (the
    /// caller then tests them in SQL).
    func matching(all terms: [String], in db: Database) throws -> [Int64]? {
        guard reading, let waiting = try waitingRows(db) else { return nil }
        let needles = terms.map(Needle.init)
        return waiting.rows.withUnsafeBufferPointer { rows in
            rows.indices.compactMap { index in needles.allSatisfy { $0.occurs(in: rows[index]) } ? waiting.ids[index] : nil }
        }
    }

    /// The waiting rows of this read's snapshot (looked up by the first search after a change), with the
    /// text of rows new to them read; nil when more than `rowLimit` rows wait.
    private func waitingRows(_ db: Database) throws -> (ids: [Int64], rows: [Row])? {
        if let waiting { return waiting.ids.count <= Self.rowLimit ? waiting : nil }
        let list = try db.cached("""
            SELECT row_id, seq, agent_id, task_id, category FROM timeline WHERE indexed_seq IS NOT seq LIMIT ?
            """)
        defer { list.reset() }
        try list.bind(Int64(Self.rowLimit + 1), at: 1)
        var current: [(rowID: Int64, seq: Int64, agentID: String, taskID: String, category: String?)] = []
        while try list.step() == .row {
            current.append((list.int64(0), list.int64(1), list.string(2), list.string(3), list.optionalString(4)))
        }
        guard current.count <= Self.rowLimit else {
            (rows, waiting) = ([:], (current.map(\.rowID), []))
            return nil
        }
        var kept: [Int64: Row] = [:]
        kept.reserveCapacity(current.count)
        let missing = current.filter { rows[$0.rowID]?.seq != $0.seq }
        for row in current where rows[row.rowID]?.seq == row.seq { kept[row.rowID] = rows[row.rowID] }
        // Events stored together share pages: read in seq order.
        let text = try db.cached("SELECT title, body FROM events WHERE seq = ?1")
        for row in missing.sorted(by: { $0.seq < $1.seq }) {
            try text.bind(row.seq, at: 1)
            defer { text.reset() }
            guard try text.step() == .row else {
                throw SQLiteError(code: SQLITE_CORRUPT, message: "timeline row refers to missing event \(row.seq)")
            }
            kept[row.rowID] = Self.row(seq: row.seq, columns: [text.string(0), text.string(1), row.agentID, row.taskID,
                                                               row.category])
        }
        // Kept only once every text is read: a read that failed half way leaves nothing half done.
        let listed = (ids: current.map(\.rowID), rows: current.map { kept[$0.rowID]! })
        (rows, waiting) = (kept, listed)
        return listed
    }

    /// A row's text as kept, from its five columns (nil: NULL; only the category may be).
    static func row(seq: Int64, columns: [String?]) -> Row {
        var bytes: [UInt8] = []
        var bounds: [Int32] = [0]
        var nullColumns: UInt8 = 0
        for (index, column) in columns.enumerated() {
            if let column { bytes.append(contentsOf: column.utf8) } else { nullColumns |= 1 << index }
            bounds.append(Int32(bytes.count))
        }
        return Row(seq: seq, lowered: FoldedNeedle.asciiLowered(bytes), bounds: bounds, nullColumns: nullColumns)
    }

    /// A term as `FilterSQL.contains` tests it: an ASCII term as LIKE does (only ASCII letters fold),
    /// another through the rule of `tl_icontains` (`FoldedNeedle`).
    struct Needle {
        let ascii: AnchoredNeedle?
        let folded: FoldedNeedle?

        init(_ term: String) {
            if term.utf8.allSatisfy({ $0 < 0x80 }) {
                (ascii, folded) = (AnchoredNeedle(lowered: FoldedNeedle.asciiLowered(term.utf8)), nil)
            } else {
                (ascii, folded) = (nil, FoldedNeedle(term))
            }
        }

        /// Whether any of the row's columns contains the term (a NULL column contains nothing).
        func occurs(in row: Row) -> Bool {
            if let ascii {
                return ascii.occurs(in: row)
            }
            guard let folded else { return false }
            return row.anyColumn { folded.occurs(in: $0) }
        }
    }
}
