import TimelineCore

/// Which tasks an export covers: those matching `query`, narrowed to `taskIDs` and to marked tasks.
public struct ExportSelection: Sendable {
    public var query: TimelineQuery
    /// Exact task ids (nil: any).
    public var taskIDs: [String]?
    public var markedOnly: Bool

    public init(query: TimelineQuery = TimelineQuery(), taskIDs: [String]? = nil, markedOnly: Bool = false) {
        self.query = query
        self.taskIDs = taskIDs
        self.markedOnly = markedOnly
    }
}

extension TimelineStore {
    /// Calls `body` with every event of the selected tasks and its arrival sequence: in arrival order, or with
    /// `groupedByTask` task by task (newest task first), each task's events in arrival order. Re-importing
    /// events in arrival order reproduces the store exactly (ties on timestamps resolve the same way).
    /// Streams: memory stays flat.
    public func forEachEvent(in selection: ExportSelection, groupedByTask: Bool,
                             _ body: (Event, Int64) throws -> Void) throws {
        let filter = FilterSQL(selection.query, tokenizer: searchTokenizer, textTest: .substringPerRow)
        var extra: [String] = []
        var extraValues: [SQLiteValue] = []
        if let ids = selection.taskIDs {
            extra.append("t.task_id IN (" + ids.map { _ in "?" }.joined(separator: ", ") + ")")
            extraValues += ids.map { .text($0) }
        }
        if selection.markedOnly { extra.append("t.task_id IN (SELECT task_id FROM marks)") }
        let tasks = "SELECT t.row_id, t.ts_us, t.seq FROM timeline t JOIN events e ON e.seq = t.seq"
            + filter.whereClause(adding: extra)
        let sql = """
            SELECT x.seq, x.id, x.agent_id, x.task_id, x.title, x.body, x.status, x.category, x.ts_us, x.progress,
                   \(PayloadShapes.rawJSON("x")), x.received_us
            FROM (\(tasks)) k JOIN events x ON x.task_row = k.row_id
            ORDER BY \(groupedByTask ? "k.ts_us DESC, k.seq DESC, x.seq" : "x.seq")
            """
        try locked {
            let statement = try db.prepare(sql)
            try statement.bind(filter.values + extraValues)
            while try statement.step() == .row {
                try body(Self.event(from: statement), statement.int64(0))
            }
        }
    }
}
