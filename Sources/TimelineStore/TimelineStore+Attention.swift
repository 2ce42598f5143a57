import Foundation
import TimelineCore

/// The SQL of read state: one rule, used by rows and counts.
enum ReadState {
    /// The `U` watermark: every event up to it is read.
    static let readAllSeq = "COALESCE((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'read_all_seq'), 0)"
    /// 1 when timeline row `t` is unread: its winning event is newer than its mark and the watermark.
    static let unreadColumn = """
        (t.seq > MAX(COALESCE((SELECT r.seq FROM read_marks r WHERE r.task_row = t.row_id), 0), \(readAllSeq)))
        """
}

/// How the fleet stands, from the timeline's current rows.
public struct FleetCounts: Sendable, Equatable {
    public var running = 0
    public var errors = 0
    public var unreadErrors = 0
    /// Tasks waiting for a human (`needs_input`).
    public var waiting = 0
    public init() {}

    /// True when something needs the user: unread errors or waiting tasks (`timeline status` exits 1).
    public var needsAttention: Bool { unreadErrors > 0 || waiting > 0 }
}

/// An event with its arrival sequence, for watchers that follow new arrivals.
public struct ArrivedEvent: Sendable, Equatable {
    public var seq: Int64
    public var event: Event
}

extension TimelineStore: ReadMarking {}

extension TimelineStore {
    /// The newest arrival sequence (0 for an empty store).
    public func newestSeq() throws -> Int64 {
        try locked { try db.scalarInt("SELECT COALESCE(MAX(seq), 0) FROM events") }
    }

    /// Up to `limit` events that arrived after `seq`, in arrival order.
    public func events(arrivedAfter seq: Int64, limit: Int) throws -> [ArrivedEvent] {
        let sql = "SELECT e.seq, e.id, e.agent_id, e.task_id, e.title, e.body, e.status, e.category, e.ts_us,"
            + " e.progress, " + PayloadShapes.rawJSON("e") + ", e.received_us FROM events e WHERE e.seq > ? ORDER BY e.seq LIMIT ?"
        return try locked {
            let statement = try db.cached(sql)
            defer { statement.reset() }
            try statement.bind([.integer(seq), .integer(Int64(limit))])
            var out: [ArrivedEvent] = []
            while try statement.step() == .row {
                out.append(ArrivedEvent(seq: statement.int64(0), event: Self.event(from: statement)))
            }
            return out
        }
    }

    /// The task's winning event among those that arrived up to `seq`: its status and key (nil: none).
    public func taskState(_ taskID: String, arrivedUpTo seq: Int64) throws -> (status: Status, key: RowKey)? {
        let sql = "SELECT e.status, e.ts_us, e.seq FROM events e"
            + " WHERE e.task_row = (SELECT row_id FROM timeline WHERE task_id = ?) AND e.seq <= ?"
            + " ORDER BY e.ts_us DESC, e.seq DESC LIMIT 1"
        return try locked {
            let statement = try db.cached(sql)
            defer { statement.reset() }
            try statement.bind([.text(taskID), .integer(seq)])
            guard try statement.step() == .row else { return nil }
            return (Status(rawValue: statement.string(0)) ?? .info,
                    RowKey(timestampMicros: statement.int64(1), seq: statement.int64(2)))
        }
    }

    /// Marks the task read up to the event `seq` (the newest one the user saw; a newer one stays unread).
    public func markRead(taskID: String, seq: Int64) throws {
        try locked {
            try db.transaction {
                let row = try db.cached("SELECT row_id FROM timeline WHERE task_id = ?")
                defer { row.reset() }
                try row.bind(taskID, at: 1)
                guard try row.step() == .row else { return }
                let rowID = row.int64(0)
                row.reset()
                try KeptCounts.changingReadMarks(ofRows: [rowID], in: db) {
                    try db.run("""
                        INSERT INTO read_marks (task_row, seq) VALUES (?, ?)
                        ON CONFLICT (task_row) DO UPDATE SET seq = MAX(seq, excluded.seq)
                        """, [.integer(rowID), .integer(seq)])
                }
            }
        }
    }

    /// `U`: every event stored so far is read.
    public func markAllRead() throws {
        try locked {
            try db.transaction {
                try db.execute("""
                    INSERT OR REPLACE INTO meta (key, value)
                        SELECT 'read_all_seq', CAST(COALESCE(MAX(seq), 0) AS TEXT) FROM events;
                    DELETE FROM read_marks;
                    """)
                try KeptCounts.recountUnreadErrors(in: db)
            }
        }
    }

    /// Running, error, unread-error and waiting task counts: all kept counts (`TaskCounts`, `UnreadErrors`).
    public func fleetCounts() throws -> FleetCounts {
        try locked {
            var counts = FleetCounts()
            let kept = try keptTaskCounts()
            counts.running = kept[.inProgress] ?? 0
            counts.errors = kept[.error] ?? 0
            counts.unreadErrors = Int(try db.scalarInt("SELECT tasks FROM unread_errors WHERE id = 1"))
            counts.waiting = kept[.needsInput] ?? 0
            return counts
        }
    }
}
