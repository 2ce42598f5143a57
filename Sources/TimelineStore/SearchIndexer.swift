import CSQLite
import TimelineCore

/// Keeps the contentless FTS5 table `search` in step with the timeline: one entry per timeline row
/// (rowid = `timeline.row_id`) holding the text of the row's winning event.
///
/// A row waits for the index while `indexed_seq` differs from `seq`; indexing it removes the text of
/// `indexed_seq` (a contentless table needs the exact old values, read back from `events`) and adds the
/// text of `seq`. Callers run it inside a write transaction.
struct SearchIndexer {
    let db: Database

    /// Ends every indexed value (SQL; two U+0001 characters, which typed search terms never hold): every
    /// one- or two-character substring of a value then begins one of its trigrams, so a short term is found
    /// through the index's vocabulary (`ShortTerms`) instead of by reading every row.
    static let valueEnd = "char(1, 1)"

    /// The indexed values of the event `e` (SQL), in the order of the index's columns: title, body,
    /// agent_id, task_id, category, each ended by `valueEnd` (a NULL category stays NULL). Adding and
    /// removing an index entry (contentless: removal needs the exact values) both use it.
    static func indexedValues(of e: String) -> String {
        ["title", "body", "agent_id", "task_id", "category"].map { "\(e).\($0) || \(valueEnd)" }.joined(separator: ", ")
    }

    /// The index of the settled rows waiting for the full-text index (schema 16), beside
    /// `timeline_unindexed`, which holds every waiting row.
    static let createSettledWaitingIndexSQL = """
        CREATE INDEX timeline_unindexed_settled ON timeline (row_id) WHERE indexed_seq IS NOT seq AND \(WaitingClass.settled.statusCondition);
        """

    /// Waiting rows by what becomes of them: a row in progress will most likely change again soon (each
    /// indexing of it would then be undone: its text removed, the new one added), a settled row will not.
    enum WaitingClass {
        case settled
        case inProgress

        /// SQL condition on `status` selecting the class (the settled one is the condition of
        /// `timeline_unindexed_settled`, which SQLite uses for a query holding it).
        var statusCondition: String {
            let running = Status.inProgress.rawValue
            switch self {
            case .inProgress: return "status = '\(running)'"
            case .settled: return "status != '\(running)'"
            }
        }
    }

    /// `FROM … WHERE …` of the waiting rows (of `kind` only, when given), read in row id order through
    /// their index (named: the status index would read every row in progress, waiting or not).
    static func waitingRows(of kind: WaitingClass?) -> String {
        switch kind {
        case nil: "FROM timeline INDEXED BY timeline_unindexed WHERE indexed_seq IS NOT seq"
        case .settled?:
            "FROM timeline INDEXED BY timeline_unindexed_settled WHERE indexed_seq IS NOT seq AND \(WaitingClass.settled.statusCondition)"
        case .inProgress?:
            "FROM timeline INDEXED BY timeline_unindexed WHERE indexed_seq IS NOT seq AND \(WaitingClass.inProgress.statusCondition)"
        }
    }

    /// Whether at least `count` rows wait for the index (of `kind` only, when given).
    func backlog(atLeast count: Int, of kind: WaitingClass? = nil) throws -> Bool {
        try waiting(atMost: count, of: kind) >= count
    }

    /// How many rows wait for the index (of `kind` only, when given), counted up to `limit`.
    func waiting(atMost limit: Int, of kind: WaitingClass? = nil) throws -> Int {
        Int(try db.scalarInt("SELECT count(*) FROM (SELECT 1 \(Self.waitingRows(of: kind)) LIMIT ?)", [.integer(Int64(limit))]))
    }

    /// Indexes up to `limit` waiting rows (of `kind` only, when given); returns how many it indexed.
    @discardableResult
    func indexWaitingRows(limit: Int, of kind: WaitingClass? = nil) throws -> Int {
        let waiting = try db.cached("SELECT row_id, indexed_seq, seq \(Self.waitingRows(of: kind)) LIMIT ?")
        var rows: [(rowID: Int64, indexedSeq: Int64?, seq: Int64)] = []
        try waiting.bind(Int64(limit), at: 1)
        while try waiting.step() == .row {
            rows.append((waiting.int64(0), waiting.isNull(1) ? nil : waiting.int64(1), waiting.int64(2)))
        }
        waiting.reset()
        if rows.isEmpty { return 0 }

        let texts = try indexedText(of: rows.flatMap { row in [row.seq] + (row.indexedSeq.map { [$0] } ?? []) })
        let remove = try db.cached("""
            INSERT INTO search (search, rowid, title, body, agent_id, task_id, category)
            VALUES ('delete', ?1, ?2, ?3, ?4, ?5, ?6)
            """)
        let add = try db.cached("INSERT INTO search (rowid, title, body, agent_id, task_id, category) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
        let markIndexed = try db.cached("UPDATE timeline SET indexed_seq = ?2 WHERE row_id = ?1")

        /// Binds the text of event `seq` to `statement` parameters 2…6.
        func bindText(of seq: Int64, to statement: Statement) throws {
            guard let text = texts[seq] else {
                throw SQLiteError(code: SQLITE_CORRUPT, message: "timeline row refers to missing event \(seq)")
            }
            for (column, value) in text.columns.enumerated() { try statement.bind(value, at: Int32(column + 2)) }
            try statement.bind(text.category, at: 6)
        }

        // Rows go in in row_id order (FTS5 starts a new segment whenever a rowid goes down).
        for row in rows {
            if let old = row.indexedSeq {
                try remove.bind(row.rowID, at: 1)
                try bindText(of: old, to: remove)
                try remove.run()
            }
            try add.bind(row.rowID, at: 1)
            try bindText(of: row.seq, to: add)
            try add.run()
            try markIndexed.bind(row.rowID, at: 1)
            try markIndexed.bind(row.seq, at: 2)
            try markIndexed.run()
        }
        return rows.count
    }

    /// The indexed values of one event (`indexedValues`).
    private struct IndexedText {
        /// title, body, agent_id, task_id.
        var columns: [String]
        var category: String?
    }

    /// The indexed text of each event in `seqs`, read in `seq` order: events stored together share pages,
    /// so a large backlog (after a bulk import) reads the table about once instead of a page per row.
    private func indexedText(of seqs: [Int64]) throws -> [Int64: IndexedText] {
        let text = try db.cached("SELECT \(Self.indexedValues(of: "e")) FROM events e WHERE e.seq = ?1")
        var texts: [Int64: IndexedText] = [:]
        texts.reserveCapacity(seqs.count)
        for seq in Set(seqs).sorted() {
            try text.bind(seq, at: 1)
            if try text.step() == .row {
                texts[seq] = IndexedText(columns: (0..<4).map { text.string(Int32($0)) }, category: text.optionalString(4))
            }
            text.reset()
        }
        return texts
    }
}
