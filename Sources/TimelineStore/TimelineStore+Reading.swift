import Foundation
import TimelineCore

extension TimelineStore: TimelineReading {
    /// Columns of a timeline row: the winning event joined with its task's row. Column 10 is the payload's
    /// template (`templatedEvent(from:)` renders it).
    private static let rowColumns = """
        e.seq, e.id, e.agent_id, e.task_id, e.title, e.body, e.status, e.category, e.ts_us, e.progress,
        \(PayloadShapes.template("e")), e.received_us, e.sent_us, e.receive_count, t.event_count, \(ReadState.unreadColumn),
        (SELECT MIN(f.ts_us) FROM events f WHERE f.task_row = t.row_id), t.row_id
        """
    /// What `rowColumns` reads besides the timeline row `t`: its winning event and the event's shape.
    private static let rowEvents = " JOIN events e ON e.seq = t.seq" + PayloadShapes.shapeJoin("e")
    /// Columns of an event (`FROM events e` with `PayloadShapes.shapeJoin("e")`).
    private static let eventColumns = """
        e.seq, e.id, e.agent_id, e.task_id, e.title, e.body, e.status, e.category, e.ts_us, e.progress,
        \(PayloadShapes.template("e")), e.received_us, e.sent_us, e.receive_count
        """

    public func rows(matching query: TimelineQuery, olderThan key: RowKey?, limit: Int) throws -> [TimelineRow] {
        try rows(matching: query, from: key, limit: limit, plan: .automatic).rows
    }

    public func rows(matching query: TimelineQuery, newerThan key: RowKey, limit: Int) throws -> [TimelineRow] {
        try rows(matching: query, from: key, newer: true, limit: limit, plan: .automatic).rows
    }

    /// The rows older than `key` (all rows without one), or with `newer` the ones just newer than it, newest
    /// first, read with `plan`; and which of its ways gave them.
    func rows(matching query: TimelineQuery, from key: RowKey?, newer: Bool = false, limit: Int,
              plan: SearchWindowPlan) throws -> (rows: [TimelineRow], source: SearchWindowPlan.Source) {
        guard limit > 0 else { return ([], .walk) }
        let bounds = key == nil ? [] : ["(t.ts_us, t.seq) \(newer ? ">" : "<") (?, ?)"]
        let values: [SQLiteValue] = key.map { [.integer($0.timestampMicros), .integer($0.seq)] } ?? []
        let read = try locked {
            try oneRead(of: query) {
                try window(query, bounds: bounds, boundValues: values, order: newer ? "ASC" : "DESC", limit: limit, plan: plan)
            }
        }
        return newer ? (read.rows.reversed(), read.source) : read
    }

    /// Most rows of a status (or of a qualifier's values) for which a window reads them from their index
    /// and sorts them; from this many on, walking the timeline in order meets a window of them soon.
    static let rareMatchLimit = SearchWindowPlan.automatic.rareMatchLimit

    /// One window of rows matching `query` within `bounds`, in `order` of (ts_us, seq) (caller holds the lock).
    ///
    /// Every plan reads about a window's worth of rows when matches are common, and only the matches when
    /// they are rare. With full-text terms (`SearchWindowPlan`): a sample of the newest tasks' matches that
    /// holds every match starts the window from them; one dense enough walks the timeline in display order
    /// first, testing each row's text (the same case-insensitive substring test that covers rows waiting
    /// for the index), at most `walkBeforeProbeBudget` rows. Otherwise, or when that walk gives up, a probe
    /// reads at most `rareMatchLimit` matches: when that is all of them, the window is built from those rows
    /// (sorted by key alone; events are read for the window's rows only); when there are more, the walk is
    /// tried. A walk tests at most `walkBudget` rows before the window is built from the matches. Without
    /// full-text terms, statuses that are rare are read from their index and sorted; common ones (and every
    /// other condition) are tested walking in display order.
    private func window(_ query: TimelineQuery, bounds: [String], boundValues: [SQLiteValue], order: String, limit: Int,
                        plan: SearchWindowPlan = .automatic) throws -> (rows: [TimelineRow], source: SearchWindowPlan.Source) {
        let indexed = filter(query)
        let orderBy = " ORDER BY t.ts_us \(order), t.seq \(order)"
        let limitValue = SQLiteValue.integer(Int64(limit))
        guard let match = indexed.matchExpression else {
            // Left to itself the planner prefers the status index and sorts every row of the status. Values a
            // qualifier resolved to are read from their index and sorted when they hold few matches; many
            // matches are met soon walking in order.
            let source: String
            if let index = indexed.valueIndex, query.marked != true {
                source = try fewMatches(indexed, index: index, bounds: bounds, boundValues: boundValues)
                    ? "timeline t INDEXED BY \(index)" : Self.timelineInOrder
            } else {
                let walkInOrder = try !query.statuses.isEmpty && query.marked != true && !fewRows(withStatuses: query.statuses)
                source = walkInOrder ? Self.timelineInOrder : "timeline t"
            }
            let sql = "SELECT \(Self.rowColumns) FROM \(source)"
                + Self.rowEvents + indexed.whereClause(adding: bounds) + orderBy + " LIMIT ?"
            return (try readRows(sql, indexed.values + boundValues + [limitValue]), .walk)
        }
        func walk(budget: Int = plan.walkBudget) throws -> [TimelineRow]? {
            try walkWindow(query, bounds: bounds, boundValues: boundValues, order: order, limit: limit, budget: budget)
        }
        var walked = false
        var known: [Int64]?
        switch plan.forced {
        case .walk?:
            if let rows = try walk() { return (rows, .walk) }
            walked = true
        case .matches?:
            walked = true
        case nil:
            let sample = try newestMatches(match, limit: plan.densitySample)
            if sample.count < plan.densitySample {
                known = sample
            } else if plan.walksFirst(sample: sample, limit: limit) {
                let budget = min(plan.walkBudget, plan.walkBeforeProbeBudget)
                if let rows = try walk(budget: budget) { return (rows, .walk) }
                walked = budget == plan.walkBudget
            }
        }
        if known == nil { known = try indexedMatches(match, limit: plan.rareMatchLimit) }
        if known == nil, !walked, let rows = try walk() { return (rows, .walk) }
        // From the matches (those the probe read, when it read them all): sort their keys, read events for
        // the window's rows only.
        let matches = known.map { filter(query, knownMatches: $0) } ?? indexed
        let keys = "SELECT t.row_id FROM timeline t" + join(matches) + matches.whereClause(adding: bounds)
            + orderBy + " LIMIT ?"
        let sql = "SELECT \(Self.rowColumns) FROM (\(keys)) k CROSS JOIN timeline t ON t.row_id = k.row_id"
            + Self.rowEvents + orderBy
        return (try readRows(sql, matches.values + boundValues + [limitValue]), .matches)
    }

    /// The walk: rows in `order` up to the `budget`-th within `bounds` (found on the order index alone),
    /// each tested by its text. The window, or nil when the budget ran out before it filled (a walk that
    /// saw every row in bounds is the answer, full or not).
    private func walkWindow(_ query: TimelineQuery, bounds: [String], boundValues: [SQLiteValue], order: String,
                            limit: Int, budget: Int) throws -> [TimelineRow]? {
        let scan = filter(query, textTest: .substringPerRow)
        let orderBy = " ORDER BY t.ts_us \(order), t.seq \(order)"
        let boundary = try walkBoundary(bounds: bounds, boundValues: boundValues, orderBy: orderBy, budget: budget)
        var walkBounds = bounds
        var walkValues = boundValues
        if let boundary {
            walkBounds.append("(t.ts_us, t.seq) \(order == "DESC" ? ">=" : "<=") (?, ?)")
            walkValues += [.integer(boundary.timestampMicros), .integer(boundary.seq)]
        }
        let sql = "SELECT \(Self.rowColumns) FROM \(Self.timelineInOrder)" + Self.rowEvents
            + scan.whereClause(adding: walkBounds) + orderBy + " LIMIT ?"
        let rows = try readRows(sql, scan.values + walkValues + [.integer(Int64(limit))])
        return rows.count == limit || boundary == nil ? rows : nil
    }

    /// The timeline walked in display order (newest first or oldest first, as the query's ORDER BY says).
    private static let timelineInOrder = "timeline t INDEXED BY timeline_order"

    /// Key of the `budget`-th row within `bounds` in `orderBy` order; nil when there are fewer rows.
    private func walkBoundary(bounds: [String], boundValues: [SQLiteValue], orderBy: String, budget: Int) throws -> RowKey? {
        let sql = "SELECT t.ts_us, t.seq FROM timeline t" + (bounds.isEmpty ? "" : " WHERE " + bounds.joined(separator: " AND "))
            + orderBy + " LIMIT 1 OFFSET ?"
        let statement = try db.cached(sql)
        defer { statement.reset() }
        try statement.bind(boundValues + [.integer(Int64(budget - 1))])
        guard try statement.step() == .row else { return nil }
        return RowKey(timestampMicros: statement.int64(0), seq: statement.int64(1))
    }

    /// Every row the full-text index holds for `match` when there are fewer than `limit`; nil when there
    /// are more.
    private func indexedMatches(_ match: String, limit: Int) throws -> [Int64]? {
        let rows = try matchRows("SELECT rowid FROM search WHERE search MATCH ? LIMIT ?", match, limit: limit)
        return rows.count < limit ? rows : nil
    }

    /// The `limit` greatest row ids (the newest tasks, mostly) the full-text index holds for `match`, descending.
    private func newestMatches(_ match: String, limit: Int) throws -> [Int64] {
        try matchRows("SELECT rowid FROM search WHERE search MATCH ? ORDER BY rowid DESC LIMIT ?", match, limit: limit)
    }

    private func matchRows(_ sql: String, _ match: String, limit: Int) throws -> [Int64] {
        let statement = try db.cached(sql)
        defer { statement.reset() }
        try statement.bind([.text(match), .integer(Int64(limit))])
        var rows: [Int64] = []
        while try statement.step() == .row { rows.append(statement.int64(0)) }
        return rows
    }

    /// Whether fewer than `rareMatchLimit` timeline rows have one of `statuses` (read on the status index).
    private func fewRows(withStatuses statuses: Set<Status>) throws -> Bool {
        let list = statuses.map { _ in "?" }.joined(separator: ", ")
        let probe = "SELECT count(*) FROM (SELECT 1 FROM timeline WHERE status IN (\(list)) LIMIT ?)"
        let values = statuses.map(\.rawValue).sorted().map { SQLiteValue.text($0) } + [.integer(Int64(Self.rareMatchLimit))]
        return try db.scalarInt(probe, values) < Self.rareMatchLimit
    }

    /// Whether fewer than `rareMatchLimit` rows within `bounds` match `filter`, read through `index`.
    private func fewMatches(_ filter: FilterSQL, index: String, bounds: [String], boundValues: [SQLiteValue]) throws -> Bool {
        let probe = "SELECT count(*) FROM (SELECT 1 FROM timeline t INDEXED BY \(index)" + join(filter)
            + filter.whereClause(adding: bounds) + " LIMIT ?)"
        return try db.scalarInt(probe, filter.values + boundValues + [.integer(Int64(Self.rareMatchLimit))]) < Self.rareMatchLimit
    }

    public func count(matching query: TimelineQuery) throws -> Int {
        try locked { try oneRead(of: query) { try count(query, upTo: nil) } }
    }

    public func count(matching query: TimelineQuery, upTo limit: Int) throws -> Int {
        try locked { try oneRead(of: query) { try count(query, upTo: max(0, limit)) } }
    }

    /// Rows matching `query`, counting at most `limit` when given (caller holds the lock).
    private func count(_ query: TimelineQuery, upTo limit: Int?) throws -> Int {
        if let statuses = TaskCounts.statusesOnly(query) {
            let total = try keptTaskCounts().filter { statuses.contains($0.key) }.values.reduce(0, +)
            return limit.map { min($0, total) } ?? total
        }
        let filter = filter(query)
        let cap = limit.map { " LIMIT \($0)" } ?? ""
        if filter.isOnlyIndexedTerms, let set = filter.matchSet {
            // Every element of the match set is a distinct timeline row.
            return Int(try db.scalarInt("SELECT count(*) FROM (\(set.sql)\(cap))", set.values))
        }
        let source = try countSource(query, filter)
        return Int(try db.scalarInt("SELECT count(*) FROM (SELECT 1" + source.sql + cap + ")", source.values))
    }

    /// `FROM … WHERE …` of the rows a count reads (caller holds the lock): with full-text terms, the match
    /// set's rows as the index yields them (a capped count stops early, never gathering the whole set
    /// first), unless other conditions test each row's text anyway and the set holds half the timeline or
    /// more: then walking the timeline and testing each row reads fewer rows than going through the index.
    private func countSource(_ query: TimelineQuery, _ indexed: FilterSQL) throws -> (sql: String, values: [SQLiteValue]) {
        guard let match = indexed.matchExpression, let streamed = indexed.fromMatchSet() else {
            let table = indexed.valueIndex.map { "timeline t INDEXED BY \($0)" } ?? "timeline t"
            return (" FROM \(table)" + join(indexed) + indexed.whereClause(), indexed.values)
        }
        if !indexed.needsEvents { return streamed }
        let half = try db.scalarInt("SELECT max(row_id) FROM timeline") / 2
        let probe = "SELECT count(*) FROM (SELECT rowid FROM search WHERE search MATCH ? LIMIT ?)"
        guard half > 0, try db.scalarInt(probe, [.text(match), .integer(half)]) >= half else { return streamed }
        let scan = filter(query, textTest: .substringPerRow)
        return (" FROM timeline t" + join(scan) + scan.whereClause(), scan.values)
    }

    public func countNewer(than key: RowKey, matching query: TimelineQuery) throws -> Int {
        try locked { try oneRead(of: query) { try countNewer(key, query, upTo: nil) } }
    }

    public func countNewer(than key: RowKey, matching query: TimelineQuery, upTo limit: Int) throws -> Int {
        try locked { try oneRead(of: query) { try countNewer(key, query, upTo: max(0, limit)) } }
    }

    /// Matching rows newer than `key`, counting at most `limit` when given (caller holds the lock).
    private func countNewer(_ key: RowKey, _ query: TimelineQuery, upTo limit: Int?) throws -> Int {
        let filter = filter(query)
        if filter.conditions.isEmpty && !filter.needsEvents { return try countNewer(key, upTo: limit) }
        let rows = "SELECT 1 FROM timeline t" + join(filter) + filter.whereClause(adding: ["(t.ts_us, t.seq) > (?, ?)"])
            + (limit.map { " LIMIT \($0)" } ?? "")
        return Int(try db.scalarInt("SELECT count(*) FROM (\(rows))",
                                    filter.values + [.integer(key.timestampMicros), .integer(key.seq)]))
    }

    /// Every row newer than `key`, at most `limit` when given (caller holds the lock). Each entry of the
    /// order index costs a test when counted by a row-value comparison or through a LIMIT subquery; here
    /// the index range alone bounds the count. Past a limit, the limit-th newest row's key (a skip
    /// through the index, no test per entry) tells that it is reached without counting.
    private func countNewer(_ key: RowKey, upTo limit: Int?) throws -> Int {
        if let limit {
            guard limit > 0 else { return 0 }
            if let limitth = try keyOfRow(after: limit - 1), limitth > key { return limit }
        }
        let counted = Int(try db.scalarInt(Self.rowsNewer, [.integer(key.timestampMicros), .integer(key.seq)]))
        // Rows may arrive between the two reads.
        return limit.map { min($0, counted) } ?? counted
    }

    /// The key of the row that has `newer` rows above it, if there is one (caller holds the lock).
    private func keyOfRow(after newer: Int) throws -> RowKey? {
        let statement = try db.cached(Self.keyOfRowAfter)
        defer { statement.reset() }
        try statement.bind([.integer(Int64(newer))])
        guard try statement.step() == .row else { return nil }
        return RowKey(timestampMicros: statement.int64(0), seq: statement.int64(1))
    }

    /// The key of the row after `?` newer ones: a skip through the order index.
    static let keyOfRowAfter = "SELECT ts_us, seq FROM timeline ORDER BY ts_us DESC, seq DESC LIMIT 1 OFFSET ?"
    /// How many rows are newer than the key (`?1`, `?2`): a later timestamp, or the same one and a later
    /// seq; two ranges of the order index, counted without a test per entry.
    static let rowsNewer = "SELECT (SELECT count(*) FROM timeline WHERE ts_us > ?1)"
        + " + (SELECT count(*) FROM timeline WHERE ts_us = ?1 AND seq > ?2)"

    public func statusCounts(matching query: TimelineQuery) throws -> [Status: Int] {
        try locked { try oneRead(of: query) { try statusCounts(query, upTo: nil) } }
    }

    public func statusCounts(matching query: TimelineQuery, upTo limit: Int) throws -> [Status: Int] {
        try locked { try oneRead(of: query) { try statusCounts(query, upTo: max(0, limit)) } }
    }

    /// Per-status counts of the rows matching `query`, or of the first `limit` of them (caller holds the lock).
    private func statusCounts(_ query: TimelineQuery, upTo limit: Int?) throws -> [Status: Int] {
        if let statuses = TaskCounts.statusesOnly(query) {
            // Kept counts are exact, and past a limit valid lower bounds too: cheaper than counting to it.
            return try keptTaskCounts().filter { statuses.contains($0.key) }
        }
        let filter = filter(query)
        // One pass with a counter per status (GROUP BY would sort every row).
        let counters = Status.allCases.map { "count(*) FILTER (WHERE status = '\($0.rawValue)')" }
        let (from, values) = try countSource(query, filter)
        let rows = "SELECT t.status AS status" + from + (limit.map { " LIMIT \($0)" } ?? "")
        let sql = "SELECT " + counters.joined(separator: ", ") + " FROM (\(rows))"
        let statement = try db.cached(sql)
        defer { statement.reset() }
        try statement.bind(values)
        var counts: [Status: Int] = [:]
        if try statement.step() == .row {
            for (index, status) in Status.allCases.enumerated() where statement.int(Int32(index)) > 0 {
                counts[status] = statement.int(Int32(index))
            }
        }
        return counts
    }

    public func row(taskID: String) throws -> TimelineRow? {
        let sql = "SELECT \(Self.rowColumns) FROM timeline t" + Self.rowEvents + " WHERE t.task_id = ?"
        return try locked { try readRows(sql, [.text(taskID)]).first }
    }

    /// Task ids that begin with `prefix` (byte order), at most `limit`: for ids a table printed cut.
    public func taskIDs(startingWith prefix: String, limit: Int) throws -> [String] {
        guard limit > 0, !prefix.isEmpty else { return [] }
        // The range of strings with this prefix, read from the task_id index: U+10FFFF sorts after every
        // other character in UTF-8 byte order.
        let sql = "SELECT task_id FROM timeline WHERE task_id >= ?1 AND task_id < ?2 ORDER BY task_id LIMIT ?3"
        return try locked {
            let statement = try db.cached(sql)
            defer { statement.reset() }
            try statement.bind([.text(prefix), .text(prefix + "\u{10FFFF}"), .integer(Int64(limit))])
            var ids: [String] = []
            while try statement.step() == .row { ids.append(statement.optionalString(0) ?? "") }
            return ids
        }
    }

    public func history(taskID: String, limit: Int) throws -> [Event] {
        guard limit > 0 else { return [] }
        let sql = "SELECT \(Self.eventColumns) FROM events e" + PayloadShapes.shapeJoin("e")
            + " WHERE e.task_row = (SELECT row_id FROM timeline WHERE task_id = ?) ORDER BY e.ts_us DESC, e.seq DESC LIMIT ?"
        return try locked {
            let statement = try db.cached(sql)
            defer { statement.reset() }
            try statement.bind([.text(taskID), .integer(Int64(limit))])
            var events: [Event] = []
            while try statement.step() == .row { events.append(try templatedEvent(from: statement, reusing: false)) }
            return events
        }
    }

    /// Changes whenever any connection commits: `PRAGMA data_version` (other connections' commits)
    /// combined with this connection's own change counter (its own writes).
    public func changeToken() throws -> Int64 {
        try locked { try currentChangeToken() }
    }

    /// `changeToken` (caller holds the lock); inside a read transaction, that of its snapshot.
    private func currentChangeToken() throws -> Int64 {
        (try db.dataVersion() &* 1_000_003) &+ db.totalChanges
    }

    // MARK: Helpers

    /// The filter for `query` on this connection (caller holds the lock): a qualifier's index clause looks
    /// for its needle's rarest trigram (`QualifierPieces`), a short term for the trigrams it begins
    /// (`ShortTerms`).
    private func filter(_ query: TimelineQuery, textTest: FilterSQL.TextTest = .fullTextIndex,
                        knownMatches: [Int64]? = nil) -> FilterSQL {
        FilterSQL(query, tokenizer: searchTokenizer, textTest: textTest, qualifierPiece: { column, needle in
            qualifierPieces.piece(column: column, needle: needle) { column, trigram in
                let phrase = "\(column) : \"" + trigram.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                return Int(try db.scalarInt("SELECT count(*) FROM (SELECT rowid FROM search WHERE search MATCH ? LIMIT ?)",
                                            [.text(phrase), .integer(Int64(QualifierPieces.probeLimit))]))
            }
        }, shortTermTrigrams: { try? shortTermTrigrams($0) }, knownMatches: knownMatches,
        waitingMatches: { terms in (try? waitingTexts.matching(all: terms, in: db)) ?? nil },
        resolve: { qualifier, needle in try? resolvedValues(qualifier, needle: needle) })
    }

    /// Runs `body`, the reads of one answer for `query`, in one read transaction when the query has free
    /// text: its searches then test the rows waiting for the index in memory (`WaitingRowTexts`), looked up
    /// in the same snapshot as the query (caller holds the lock).
    private func oneRead<T>(of query: TimelineQuery, _ body: () throws -> T) throws -> T {
        guard !query.terms.isEmpty || !query.excludedTerms.isEmpty else { return try body() }
        return try db.readTransaction {
            // Reading the token begins the transaction's snapshot: it is the token of what the body reads.
            waitingTexts.startRead(token: try currentChangeToken())
            defer { waitingTexts.endRead() }
            return try body()
        }
    }

    /// The timeline's distinct values (`TimelineValues`) that `needle` matches for `qualifier`; nil when
    /// there are more than `TimelineValues.resolveLimit` (caller holds the lock).
    private func resolvedValues(_ qualifier: FilterSQL.ValueQualifier, needle: String) throws -> [String]? {
        let (sql, values) = qualifier.valuesSQL(needle: needle)
        let statement = try db.cached(sql)
        defer { statement.reset() }
        try statement.bind(values)
        var found: [String] = []
        while try statement.step() == .row { found.append(statement.string(0)) }
        return found.count <= TimelineValues.resolveLimit ? found : nil
    }

    /// The index's trigrams that begin with the short term `term` (caller holds the lock); nil when the
    /// term is not looked up in the vocabulary, or begins more than `ShortTerms.trigramLimit` trigrams.
    func shortTermTrigrams(_ term: String) throws -> [String]? {
        guard let prefix = ShortTerms.vocabularyPrefix(of: term) else { return nil }
        let statement: Statement
        do {
            statement = try db.cached(ShortTerms.trigramsInRange)
        } catch {
            try db.execute(ShortTerms.createVocabulary)
            statement = try db.cached(ShortTerms.trigramsInRange)
        }
        defer { statement.reset() }
        try statement.bind([.text(prefix), .text(ShortTerms.rangeEnd(of: prefix)), .integer(Int64(ShortTerms.trigramLimit + 1))])
        var trigrams: [String] = []
        while try statement.step() == .row { trigrams.append(statement.string(0)) }
        return trigrams.count <= ShortTerms.trigramLimit ? trigrams : nil
    }

    private func join(_ filter: FilterSQL) -> String {
        filter.needsEvents ? " JOIN events e ON e.seq = t.seq" : ""
    }

    /// Runs a row query (caller holds the lock).
    private func readRows(_ sql: String, _ values: [SQLiteValue]) throws -> [TimelineRow] {
        let statement = try db.cached(sql)
        defer { statement.reset() }
        try statement.bind(values)
        var rows: [TimelineRow] = []
        var running: [(index: Int, taskRow: Int64)] = []
        while try statement.step() == .row {
            let row = TimelineRow(event: try templatedEvent(from: statement), seq: statement.int64(0),
                                  eventCount: statement.int(14), receivedMicros: statement.int64(11),
                                  unread: statement.int(15) != 0, firstMicros: statement.int64(16))
            if row.event.status == .inProgress { running.append((rows.count, statement.int64(17))) }
            rows.append(row)
        }
        for (index, taskRow) in running {
            let version = ProgressPointsCache.Version(seq: rows[index].seq, eventCount: rows[index].eventCount,
                                                      firstMicros: rows[index].firstMicros)
            rows[index].recentProgress = try progressPoints.points(taskRow: taskRow, version: version) {
                try recentProgress(taskRow: taskRow)
            }
        }
        return rows
    }

    /// A running task's newest progress reports, newest first (caller holds the lock).
    private func recentProgress(taskRow: Int64) throws -> [ProgressPoint] {
        let statement = try db.cached("""
            SELECT ts_us, progress FROM events WHERE task_row = ? AND progress IS NOT NULL
            ORDER BY ts_us DESC LIMIT \(Self.progressPointsPerRow)
            """)
        defer { statement.reset() }
        try statement.bind([.integer(taskRow)])
        var points: [ProgressPoint] = []
        while try statement.step() == .row {
            points.append(ProgressPoint(micros: statement.int64(0), progress: statement.double(1)))
        }
        return points
    }

    /// Progress reports read per running row: enough for the ETA's steady rise.
    static let progressPointsPerRow = 6

    /// Decodes an event's columns 0…13 (`eventColumns`, with the rendered payload in column 10).
    static func event(from s: Statement) -> Event {
        event(from: s, status: s.string(6), rawJSON: s.string(10))
    }

    /// Decodes `eventColumns` (column 10: the payload's template), rendering the payload from the values
    /// decoded for the event: the bytes `tl_payload` gives, each value read once (caller holds the lock).
    /// `reusing`: a timeline row's payload, taken when rendered from the same template and values before
    /// (`RenderedPayloads`); a history's events (up to hundreds, read when the detail opens) are not kept.
    func templatedEvent(from s: Statement, reusing: Bool = true) throws -> Event {
        let status = s.string(6)
        var event = Self.event(from: s, status: status, rawJSON: "")
        let values = PayloadValues(id: event.id, agentID: event.agentID, taskID: event.taskID, title: event.title,
                                   body: event.body, status: status, category: event.category,
                                   timestampMicros: event.timestampMicros, progress: event.progress)
        event.rawJSON = try s.withText(10) { template in
            try reusing ? renderedPayloads.payload(seq: s.int64(0), template: template, values: values)
                : PayloadShapes.payload(template: template, values: values)
        }
        return event
    }

    private static func event(from s: Statement, status: String, rawJSON: String) -> Event {
        let sent = s.optionalInt64(12), count = s.optionalInt64(13)
        return Event(id: s.string(1), agentID: s.string(2), taskID: s.string(3), title: s.string(4), body: s.string(5),
                     status: Status(rawValue: status) ?? .info, category: s.optionalString(7),
                     timestampMicros: s.int64(8), progress: s.optionalDouble(9), rawJSON: rawJSON,
                     delivery: sent == nil && count == nil ? nil : QueueDelivery(sentMicros: sent, receiveCount: count.map { Int($0) }))
    }
}

extension TimelineStore: RejectedReading {
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

    /// How many rejected messages are stored.
    public func rejectedCount() throws -> Int {
        try locked { Int(try db.scalarInt("SELECT count(*) FROM rejected")) }
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
