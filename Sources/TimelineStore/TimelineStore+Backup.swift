import Foundation
import TimelineCore

/// Backups (`timeline export --format backup`, restored by `timeline import`): everything the viewer knows,
/// as `BackupRecord`s.
extension TimelineStore {
    /// Calls `body` with every record of the database: events in arrival order, then rejected messages in
    /// arrival order, marks, read marks (after the events they name) and replies in the order they were
    /// made. Reads one snapshot; streams (memory stays flat).
    public func forEachBackupRecord(_ body: (BackupRecord) throws -> Void) throws {
        try locked {
            try db.transaction(immediate: false) {
                try forEachRow("SELECT " + PayloadShapes.rawJSON("e") + ", e.message_id, e.received_us, e.sent_us, e.receive_count, e.ts_us FROM events e ORDER BY e.seq") { s in
                    let sent = s.optionalInt64(3), count = s.optionalInt64(4)
                    try body(.event(StoredEvent(
                        rawJSON: s.string(0), orderingMicros: s.int64(5), messageID: s.optionalString(1), receivedMicros: s.int64(2),
                        delivery: sent == nil && count == nil ? nil : QueueDelivery(sentMicros: sent, receiveCount: count.map { Int($0) }))))
                }
                try forEachRow("SELECT raw_body, message_id, reason, received_us FROM rejected ORDER BY seq") { s in
                    try body(.rejected(StoredRejection(rawBytes: s.bytes(0), messageID: s.optionalString(1),
                                                       reason: s.string(2), receivedMicros: s.int64(3))))
                }
                try forEachRow("SELECT task_id, marked_us FROM marks ORDER BY marked_us, task_id") { s in
                    try body(.mark(taskID: s.string(0), markedMicros: s.int64(1)))
                }
                try forEachRow(Self.readPointsSQL) { s in try body(.read(eventID: s.string(0))) }
                try forEachRow("""
                    SELECT id, in_reply_to, task_id, agent_id, action, text, sender, ts_us, label, destination_kind,
                           destination, state, detail, updated_us
                    FROM replies ORDER BY seq
                    """) { s in
                    try body(.reply(StoredReply(
                        id: s.string(0), inReplyTo: s.string(1), taskID: s.string(2), agentID: s.string(3),
                        action: s.optionalString(4), text: s.optionalString(5), sender: s.string(6),
                        timestampMicros: s.int64(7), label: s.optionalString(8), destinationKind: s.string(9),
                        destination: s.string(10), state: s.string(11), detail: s.optionalString(12),
                        updatedMicros: s.int64(13))))
                }
            }
        }
    }

    /// Per task, the newest of its events that is read: the greatest arrival sequence at or below both the
    /// task's read mark and the mark-all-read watermark (the unread rule compares the task's winning event
    /// with the greater of the two, so this one event says the same for that task). Tasks with none are
    /// left out.
    private static let readPointsSQL = """
        SELECT (SELECT e.id FROM events e WHERE e.task_row = p.row_id AND e.seq <= p.point ORDER BY e.seq DESC LIMIT 1)
        FROM (SELECT t.row_id,
                     MAX(COALESCE((SELECT r.seq FROM read_marks r WHERE r.task_row = t.row_id), 0), \(ReadState.readAllSeq)) AS point
              FROM timeline t) p
        WHERE EXISTS (SELECT 1 FROM events e WHERE e.task_row = p.row_id AND e.seq <= p.point)
        ORDER BY p.row_id
        """

    private func forEachRow(_ sql: String, _ body: (Statement) throws -> Void) throws {
        let statement = try db.prepare(sql)
        while try statement.step() == .row { try body(statement) }
    }

    /// Stores `records` in ONE transaction, in order, and says what they added. Idempotent: an event id,
    /// rejected message (same bytes, message id and receive time), mark or reply already stored adds
    /// nothing; a read mark only moves a task's mark forward; a reply keeps the newest delivery outcome.
    /// Events are stored as received (their payload goes through validation again; one that no longer
    /// passes is kept as a rejected message with the reason) with their stored ordering time, receive time
    /// and delivery;
    /// they take new arrival sequences after those already stored, in the order given.
    ///
    /// Like a bulk import, it leaves the new rows waiting for the search index: call `flushSearchIndex()`
    /// at the end.
    @discardableResult
    public func restore(_ records: [BackupRecord]) throws -> RestoreCounts {
        if records.isEmpty { return RestoreCounts() }
        return try locked {
            try useBulkSettings()
            defer { restoreNormalSettings() }
            return try WriteGate.shared(path: db.path).withWriteLock { try db.transaction {
                var restorer = try BackupRestorer(db: db)
                for record in records { try restorer.add(record) }
                try restorer.finish()
                return restorer.counts
            } }
        }
    }
}

/// The statements of one restore transaction.
private struct BackupRestorer {
    let db: Database
    var writer: BatchWriter
    var counts = RestoreCounts()
    /// Read marks wait for the events of their batch: a mark names an event, which must be stored first.
    private var reads: [String] = []

    init(db: Database) throws {
        self.db = db
        writer = try BatchWriter(db: db, receivedMicros: 0)
    }

    mutating func add(_ record: BackupRecord) throws {
        switch record {
        case .event(let stored):
            switch EventParser.parse(stored.rawJSON) {
            case .success(var event):
                event.delivery = stored.delivery
                event.timestampMicros = stored.orderingMicros
                switch try writer.store(PreparedEvent(event), messageID: stored.messageID, receivedAt: stored.receivedMicros) {
                case .duplicate: counts.duplicateEvents += 1
                default: counts.events += 1
                }
            case .failure(let rejection):
                try addRejected(StoredRejection(rawBytes: Array(stored.rawJSON.utf8), messageID: stored.messageID,
                                                reason: rejection.reason, receivedMicros: stored.receivedMicros))
            }
        case .rejected(let message):
            try addRejected(message)
        case .mark(let taskID, let markedMicros):
            try db.run("INSERT OR IGNORE INTO marks (task_id, marked_us) VALUES (?, ?)", [.text(taskID), .integer(markedMicros)])
            counts.marks += Int(db.changes)
        case .read(let eventID):
            reads.append(eventID)
        case .reply(let reply):
            try db.run("""
                INSERT INTO replies (id, in_reply_to, task_id, agent_id, action, text, sender, ts_us, label,
                                     destination_kind, destination, state, detail, updated_us)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET state = excluded.state, detail = excluded.detail,
                    updated_us = excluded.updated_us
                WHERE excluded.updated_us > replies.updated_us
                """, [
                    .text(reply.id), .text(reply.inReplyTo), .text(reply.taskID), .text(reply.agentID),
                    Self.value(reply.action), Self.value(reply.text), .text(reply.sender), .integer(reply.timestampMicros),
                    Self.value(reply.label), .text(reply.destinationKind), .text(reply.destination), .text(reply.state),
                    Self.value(reply.detail), .integer(reply.updatedMicros),
                ])
            counts.replies += Int(db.changes)
        }
    }

    /// Writes the timeline rows of the events added, then the read marks (each names an event: its task's
    /// mark moves forward to it).
    mutating func finish() throws {
        try writer.writeTimelineRows()
        try writer.indexIDs()
        let find = try db.cached(EventIDIndex.findSQL(columns: "e.task_row, e.seq"))
        var marks: [(row: Int64, seq: Int64)] = []
        for eventID in reads {
            try find.bind([.integer(EventIDKey.key(eventID)), .text(eventID)])
            if try find.step() == .row { marks.append((find.int64(0), find.int64(1))) }
            find.reset()
        }
        try KeptCounts.changingReadMarks(ofRows: marks.map(\.row), in: db) {
            for mark in marks {
                try db.run("""
                    INSERT INTO read_marks (task_row, seq) VALUES (?, ?)
                    ON CONFLICT (task_row) DO UPDATE SET seq = excluded.seq WHERE excluded.seq > read_marks.seq
                    """, [.integer(mark.row), .integer(mark.seq)])
                counts.readMarks += Int(db.changes)
            }
        }
    }

    /// A rejected message, unless the same one is stored already: the same SQS message id (the unique index
    /// keeps it out), or without one the same bytes received at the same time.
    private mutating func addRejected(_ message: StoredRejection) throws {
        if message.messageID == nil {
            let stored = try db.scalarInt("""
                SELECT count(*) FROM rejected WHERE message_id IS NULL AND received_us = ? AND raw_body = ?
                """, [.integer(message.receivedMicros), .blob(message.rawBytes)])
            guard stored == 0 else { return }
        }
        try writer.storeRejected(message.rawBytes, messageID: message.messageID, reason: message.reason,
                                 receivedAt: message.receivedMicros)
        counts.rejected += Int(db.changes)
    }

    private static func value(_ text: String?) -> SQLiteValue { text.map(SQLiteValue.text) ?? .null }
}
