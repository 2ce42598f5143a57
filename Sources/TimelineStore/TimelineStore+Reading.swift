import Foundation
import TimelineCore

extension TimelineStore: TimelineReading {
    /// Columns of a timeline row: the winning event joined with its task's row.
    private static let rowColumns = """
        e.seq, e.id, e.agent_id, e.task_id, e.title, e.body, e.status, e.category, e.ts_us, e.progress,
        e.raw_json, e.received_us, t.event_count
        """
    private static let eventColumns = """
        e.seq, e.id, e.agent_id, e.task_id, e.title, e.body, e.status, e.category, e.ts_us, e.progress,
        e.raw_json, e.received_us
        """

    public func rows(matching query: TimelineQuery, olderThan key: RowKey?, limit: Int) throws -> [TimelineRow] {
        guard limit > 0 else { return [] }
        let filter = FilterSQL(query, tokenizer: searchTokenizer)
        var values = filter.values
        var extra: [String] = []
        if let key {
            extra.append("(t.ts_us, t.seq) < (?, ?)")
            values += [.integer(key.timestampMicros), .integer(key.seq)]
        }
        values.append(.integer(Int64(limit)))
        let sql = "SELECT \(Self.rowColumns) FROM timeline t JOIN events e ON e.seq = t.seq"
            + filter.whereClause(adding: extra) + " ORDER BY t.ts_us DESC, t.seq DESC LIMIT ?"
        return try locked { try readRows(sql, values) }
    }

    public func rows(matching query: TimelineQuery, newerThan key: RowKey, limit: Int) throws -> [TimelineRow] {
        guard limit > 0 else { return [] }
        let filter = FilterSQL(query, tokenizer: searchTokenizer)
        let values = filter.values + [.integer(key.timestampMicros), .integer(key.seq), .integer(Int64(limit))]
        let sql = "SELECT \(Self.rowColumns) FROM timeline t JOIN events e ON e.seq = t.seq"
            + filter.whereClause(adding: ["(t.ts_us, t.seq) > (?, ?)"]) + " ORDER BY t.ts_us ASC, t.seq ASC LIMIT ?"
        return try locked { try readRows(sql, values).reversed() }
    }

    public func count(matching query: TimelineQuery) throws -> Int {
        let filter = FilterSQL(query, tokenizer: searchTokenizer, plan: .driveFromMatches)
        if filter.isOnlyIndexedTerms, let set = filter.matchSet {
            // Every element of the match set is a distinct timeline row.
            return try locked { Int(try db.scalarInt("SELECT count(*) FROM (\(set.sql))", set.values)) }
        }
        let sql = "SELECT count(*) FROM timeline t" + join(filter) + filter.whereClause()
        return try locked { Int(try db.scalarInt(sql, filter.values)) }
    }

    public func countNewer(than key: RowKey, matching query: TimelineQuery) throws -> Int {
        let filter = FilterSQL(query, tokenizer: searchTokenizer, plan: .driveFromMatches)
        let sql = "SELECT count(*) FROM timeline t" + join(filter)
            + filter.whereClause(adding: ["(t.ts_us, t.seq) > (?, ?)"])
        let values = filter.values + [.integer(key.timestampMicros), .integer(key.seq)]
        return try locked { Int(try db.scalarInt(sql, values)) }
    }

    public func statusCounts(matching query: TimelineQuery) throws -> [Status: Int] {
        let filter = FilterSQL(query, tokenizer: searchTokenizer, plan: .driveFromMatches)
        // One pass over the order index with a counter per status (GROUP BY would sort every row).
        let counters = Status.allCases.map { "count(*) FILTER (WHERE t.status = '\($0.rawValue)')" }
        let sql = "SELECT " + counters.joined(separator: ", ") + " FROM timeline t" + join(filter) + filter.whereClause()
        return try locked {
            let statement = try db.cached(sql)
            defer { statement.reset() }
            try statement.bind(filter.values)
            var counts: [Status: Int] = [:]
            if try statement.step() == .row {
                for (index, status) in Status.allCases.enumerated() where statement.int(Int32(index)) > 0 {
                    counts[status] = statement.int(Int32(index))
                }
            }
            return counts
        }
    }

    public func row(taskID: String) throws -> TimelineRow? {
        let sql = "SELECT \(Self.rowColumns) FROM timeline t JOIN events e ON e.seq = t.seq WHERE t.task_id = ?"
        return try locked { try readRows(sql, [.text(taskID)]).first }
    }

    public func history(taskID: String, limit: Int) throws -> [Event] {
        guard limit > 0 else { return [] }
        let sql = "SELECT \(Self.eventColumns) FROM events e WHERE e.task_id = ? ORDER BY e.ts_us DESC, e.seq DESC LIMIT ?"
        return try locked {
            let statement = try db.cached(sql)
            defer { statement.reset() }
            try statement.bind([.text(taskID), .integer(Int64(limit))])
            var events: [Event] = []
            while try statement.step() == .row { events.append(Self.event(from: statement)) }
            return events
        }
    }

    /// Changes whenever any connection commits: `PRAGMA data_version` (other connections' commits)
    /// combined with this connection's own change counter (its own writes).
    public func changeToken() throws -> Int64 {
        try locked { (try db.dataVersion() &* 1_000_003) &+ db.totalChanges }
    }

    // MARK: Helpers

    private func join(_ filter: FilterSQL) -> String {
        filter.needsEvents ? " JOIN events e ON e.seq = t.seq" : ""
    }

    /// Runs a row query (caller holds the lock).
    private func readRows(_ sql: String, _ values: [SQLiteValue]) throws -> [TimelineRow] {
        let statement = try db.cached(sql)
        defer { statement.reset() }
        try statement.bind(values)
        var rows: [TimelineRow] = []
        while try statement.step() == .row {
            rows.append(TimelineRow(event: Self.event(from: statement), seq: statement.int64(0),
                                    eventCount: statement.int(12), receivedMicros: statement.int64(11)))
        }
        return rows
    }

    /// Decodes `eventColumns` (columns 0…11).
    static func event(from s: Statement) -> Event {
        Event(id: s.string(1), agentID: s.string(2), taskID: s.string(3), title: s.string(4), body: s.string(5),
              status: Status(rawValue: s.string(6)) ?? .info, category: s.optionalString(7),
              timestampMicros: s.int64(8), progress: s.optionalDouble(9), rawJSON: s.string(10))
    }
}

extension TimelineStore {
    /// Rejected messages, newest first, strictly older than the arrival sequence `seq` when given.
    public func rejected(limit: Int, olderThan seq: Int64? = nil) throws -> [RejectedMessage] {
        guard limit > 0 else { return [] }
        let sql = "SELECT seq, raw_body, message_id, reason, received_us FROM rejected WHERE seq < ? ORDER BY seq DESC LIMIT ?"
        return try locked {
            let statement = try db.cached(sql)
            defer { statement.reset() }
            try statement.bind([.integer(seq ?? .max), .integer(Int64(limit))])
            var messages: [RejectedMessage] = []
            while try statement.step() == .row {
                let raw = statement.bytes(1)
                messages.append(RejectedMessage(seq: statement.int64(0), rawBody: String(decoding: raw, as: UTF8.self),
                                                messageID: statement.optionalString(2), reason: statement.string(3),
                                                receivedMicros: statement.int64(4)))
            }
            return messages
        }
    }

    /// The exact bytes of a rejected message (`RejectedMessage.rawBody` repairs invalid UTF-8).
    public func rejectedRawBytes(seq: Int64) throws -> [UInt8]? {
        try locked {
            let statement = try db.cached("SELECT raw_body FROM rejected WHERE seq = ?")
            defer { statement.reset() }
            try statement.bind([.integer(seq)])
            return try statement.step() == .row ? statement.bytes(0) : nil
        }
    }
}
