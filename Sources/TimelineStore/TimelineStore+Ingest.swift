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
    public func ingest(_ items: [IngestItem]) throws -> [IngestOutcome] {
        if items.isEmpty { return [] }
        let receivedMicros = Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
        return try locked {
            try db.transaction {
                var writer = try BatchWriter(db: db, receivedMicros: receivedMicros)
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
                try writer.flushSearchIndex()
                return outcomes
            }
        }
    }
}

/// The statements of one ingest transaction.
///
/// Search-index updates are collected per task and applied once at the end of the batch, so a task
/// updated many times in one batch is re-indexed once.
private struct BatchWriter {
    let db: Database
    let receivedMicros: Int64
    let insertEvent: Statement
    let findRow: Statement
    let insertRow: Statement
    let replaceRow: Statement
    let countOlder: Statement
    /// Per timeline row_id: the seq whose text is in the index at the start of the batch (nil: none)
    /// and the event that must be indexed at the end.
    var searchUpdates: [Int64: (indexedSeq: Int64?, event: Event)] = [:]

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
            INSERT INTO timeline (task_id, seq, ts_us, status, agent_id, category, event_count)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1)
            """)
        replaceRow = try db.cached("""
            UPDATE timeline SET seq = ?2, ts_us = ?3, status = ?4, agent_id = ?5, category = ?6,
                                event_count = event_count + 1
            WHERE row_id = ?1
            """)
        countOlder = try db.cached("UPDATE timeline SET event_count = event_count + 1 WHERE row_id = ?1")
    }

    mutating func store(_ event: Event, messageID: String?) throws -> IngestOutcome {
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
            try bindRow(insertRow, first: .text(event.taskID), seq: seq, event: event)
            try insertRow.run()
            searchUpdates[db.lastInsertRowID] = (nil, event)
            return .inserted
        }
        let rowID = findRow.int64(0), currentSeq = findRow.int64(1), currentMicros = findRow.int64(2)
        findRow.reset()

        // Newest wins by (timestamp, arrival); seq only grows, so on equal timestamps the later arrival wins.
        if (event.timestampMicros, seq) > (currentMicros, currentSeq) {
            try bindRow(replaceRow, first: .integer(rowID), seq: seq, event: event)
            try replaceRow.run()
            let indexed = searchUpdates[rowID].map(\.indexedSeq) ?? currentSeq
            searchUpdates[rowID] = (indexed, event)
            return .replaced
        }
        try countOlder.bind(rowID, at: 1)
        try countOlder.run()
        return .keptOlder
    }

    /// Binds a timeline row's columns; `key` (?1) is the task id for an insert, the row id for an update.
    private func bindRow(_ statement: Statement, first key: SQLiteValue, seq: Int64, event: Event) throws {
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

    /// Replaces each touched task's entry in the full-text index with its final winning event.
    func flushSearchIndex() throws {
        if searchUpdates.isEmpty { return }
        let oldText = try db.cached("SELECT title, body, agent_id, task_id, category FROM events WHERE seq = ?1")
        let remove = try db.cached("""
            INSERT INTO search (search, rowid, title, body, agent_id, task_id, category)
            VALUES ('delete', ?1, ?2, ?3, ?4, ?5, ?6)
            """)
        let add = try db.cached("""
            INSERT INTO search (rowid, title, body, agent_id, task_id, category) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            """)
        for (rowID, update) in searchUpdates {
            if let indexedSeq = update.indexedSeq {
                try oldText.bind(indexedSeq, at: 1)
                guard try oldText.step() == .row else {
                    oldText.reset()
                    throw SQLiteError(code: SQLITE_CORRUPT, message: "timeline row \(rowID) points at missing event \(indexedSeq)")
                }
                try remove.bind(rowID, at: 1)
                try remove.bind(oldText.string(0), at: 2)
                try remove.bind(oldText.string(1), at: 3)
                try remove.bind(oldText.string(2), at: 4)
                try remove.bind(oldText.string(3), at: 5)
                try remove.bind(oldText.optionalString(4), at: 6)
                oldText.reset()
                try remove.run()
            }
            let event = update.event
            try add.bind(rowID, at: 1)
            try add.bind(event.title, at: 2)
            try add.bind(event.body, at: 3)
            try add.bind(event.agentID, at: 4)
            try add.bind(event.taskID, at: 5)
            try add.bind(event.category, at: 6)
            try add.run()
        }
    }
}
