import CSQLite
import Foundation
import TimelineCore

extension TimelineStore {
    /// Stores a batch in ONE transaction and says what happened to each item (same order as `items`).
    ///
    /// Idempotent: an event whose id is already stored is a `.duplicate` and changes nothing; a rejected
    /// message whose SQS message id is already stored is not stored twice. Newest wins per task by
    /// `(timestamp, arrival sequence)`; an older event is kept in the task's history only.
    /// When this returns, the batch is committed; when it throws, nothing of it was stored.
    ///
    /// The full-text index is brought up to date in the same transaction once more than
    /// `searchIndexBacklog` rows wait for it (searches cover waiting rows with LIKE, so results are
    /// always current). `deferSearchIndex: true` (bulk imports) skips that; call `flushSearchIndex()` after.
    @discardableResult
    public func ingest(_ items: [IngestItem], deferSearchIndex: Bool = false) throws -> [IngestOutcome] {
        if items.isEmpty { return [] }
        let receivedMicros = Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
        return try locked {
            try db.transaction {
                let writer = try BatchWriter(db: db, receivedMicros: receivedMicros)
                var outcomes: [IngestOutcome] = []
                outcomes.reserveCapacity(items.count)
                for item in items {
                    switch item {
                    case .event(let event, let messageID):
                        outcomes.append(try writer.store(event, messageID: messageID))
                    case .rejected(let bytes, let messageID, let reason):
                        try writer.storeRejected(bytes, messageID: messageID, reason: reason)
                        outcomes.append(.rejected)
                    }
                }
                if !deferSearchIndex {
                    let indexer = SearchIndexer(db: db)
                    if try indexer.backlog(atLeast: Self.searchIndexBacklog) {
                        try indexer.indexWaitingRows(limit: Self.searchIndexChunk)
                    }
                }
                return outcomes
            }
        }
    }

    /// Indexes every timeline row that waits for the full-text index (in transactions of a few thousand rows).
    public func flushSearchIndex() throws {
        while try locked({ try db.transaction { try SearchIndexer(db: db).indexWaitingRows(limit: Self.searchIndexChunk) } }) > 0 {}
    }

    /// Rows waiting for the full-text index (they are searched with LIKE meanwhile).
    public func searchIndexBacklog() throws -> Int {
        try locked { Int(try db.scalarInt("SELECT count(*) FROM timeline WHERE indexed_seq IS NOT seq")) }
    }

    /// Most rows that may wait for the full-text index before an ingest indexes them.
    static let searchIndexBacklog = 100
    /// Most rows indexed per transaction.
    static let searchIndexChunk = 5_000
}

/// The statements of one ingest transaction.
private struct BatchWriter {
    let db: Database
    let receivedMicros: Int64
    let insertEvent: Statement
    let findRow: Statement
    let insertRow: Statement
    let replaceRow: Statement
    let countOlder: Statement

    init(db: Database, receivedMicros: Int64) throws {
        self.db = db
        self.receivedMicros = receivedMicros
        insertEvent = try db.cached("""
            INSERT INTO events (id, agent_id, task_id, title, body, status, category, ts_us, progress,
                                raw_json, message_id, received_us)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
            ON CONFLICT (id) DO NOTHING
            """)
        findRow = try db.cached("SELECT row_id, seq, ts_us FROM timeline WHERE task_id = ?1")
        insertRow = try db.cached("""
            INSERT INTO timeline (task_id, seq, ts_us, status, agent_id, category, event_count, indexed_seq)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1, NULL)
            """)
        // indexed_seq stays: the row now waits for the search index.
        replaceRow = try db.cached("""
            UPDATE timeline SET seq = ?2, ts_us = ?3, status = ?4, agent_id = ?5, category = ?6,
                                event_count = event_count + 1
            WHERE row_id = ?1
            """)
        countOlder = try db.cached("UPDATE timeline SET event_count = event_count + 1 WHERE row_id = ?1")
    }

    func store(_ event: Event, messageID: String?) throws -> IngestOutcome {
        try insertEvent.bind(event.id, at: 1)
        try insertEvent.bind(event.agentID, at: 2)
        try insertEvent.bind(event.taskID, at: 3)
        try insertEvent.bind(event.title, at: 4)
        try insertEvent.bind(event.body, at: 5)
        try insertEvent.bind(event.status.rawValue, at: 6)
        try insertEvent.bind(event.category, at: 7)
        try insertEvent.bind(event.timestampMicros, at: 8)
        try insertEvent.bind(event.progress, at: 9)
        try insertEvent.bind(event.rawJSON, at: 10)
        try insertEvent.bind(messageID, at: 11)
        try insertEvent.bind(receivedMicros, at: 12)
        try insertEvent.run()
        if db.changes == 0 { return .duplicate }
        let seq = db.lastInsertRowID

        try findRow.bind(event.taskID, at: 1)
        guard try findRow.step() == .row else {
            findRow.reset()
            try bindRow(insertRow, key: .text(event.taskID), seq: seq, event: event)
            try insertRow.run()
            return .inserted
        }
        let rowID = findRow.int64(0), currentSeq = findRow.int64(1), currentMicros = findRow.int64(2)
        findRow.reset()

        // Newest wins by (timestamp, arrival); seq only grows, so on equal timestamps the later arrival wins.
        if (event.timestampMicros, seq) > (currentMicros, currentSeq) {
            try bindRow(replaceRow, key: .integer(rowID), seq: seq, event: event)
            try replaceRow.run()
            return .replaced
        }
        try countOlder.bind(rowID, at: 1)
        try countOlder.run()
        return .keptOlder
    }

    /// Binds a timeline row's columns; `key` (?1) is the task id for an insert, the row id for an update.
    private func bindRow(_ statement: Statement, key: SQLiteValue, seq: Int64, event: Event) throws {
        try statement.bind(key, at: 1)
        try statement.bind(seq, at: 2)
        try statement.bind(event.timestampMicros, at: 3)
        try statement.bind(event.status.rawValue, at: 4)
        try statement.bind(event.agentID, at: 5)
        try statement.bind(event.category, at: 6)
    }

    func storeRejected(_ bytes: [UInt8], messageID: String?, reason: String) throws {
        let insert = try db.cached("""
            INSERT INTO rejected (raw_body, message_id, reason, received_us) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT DO NOTHING
            """)
        try insert.bind(blob: bytes, at: 1)
        try insert.bind(messageID, at: 2)
        try insert.bind(reason, at: 3)
        try insert.bind(receivedMicros, at: 4)
        try insert.run()
    }
}
