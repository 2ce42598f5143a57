import Foundation
import TimelineCore

/// A `TimelineQuery` turned into SQL conditions over `timeline t` (and `events e` when text must be read).
///
/// Free-text terms of 3+ characters go through the trigram full-text index (case-insensitive substring),
/// and so do shorter ones the index's vocabulary lists (`ShortTerms`); other short terms, every term when
/// the index is not trigram, and rows the index has not caught up with yet, use LIKE over the same five
/// columns (LIKE for ASCII terms, a Unicode-aware function otherwise).
/// Qualifiers are case-insensitive substrings of the timeline row's columns (`host:` of the agent id's host
/// part); statuses are an IN list. `agent:`, `host:` and `category:` (and their negations) are first tested
/// against the timeline's distinct values (`TimelineValues`), when given, and become IN lists of the values
/// that match: the same rows, read through an index.
struct FilterSQL {
    /// How free-text terms are tested.
    enum TextTest {
        /// Terms of 3+ characters through the full-text index: a set of matching rows to start from
        /// (cost grows with the matches, not with the timeline).
        case fullTextIndex
        /// Every term as a substring test of each row's text (for walks that stop after one window
        /// because matches are common).
        case substringPerRow
    }

    /// Conditions joined with AND.
    var conditions: [String] = []
    var values: [SQLiteValue] = []
    /// Whether a condition reads `e.title` / `e.body` (the query must join `events e`).
    var needsEvents = false
    /// `SELECT row_id …` of the rows matching the indexed terms, when there are such terms.
    private(set) var matchSet: (sql: String, values: [SQLiteValue])?
    /// The FTS5 MATCH expression of the indexed terms, when there are such terms.
    private(set) var matchExpression: String?
    /// True when the indexed terms are the whole filter: a count is then the size of `matchSet`.
    var isOnlyIndexedTerms: Bool { matchSet != nil && conditions.count == 1 }
    /// Where the match-set condition sits in `conditions`, and its values in `values`.
    private var matchSetPosition: (condition: Int, values: Range<Int>)?
    /// The index that reads the rows of a qualifier resolved to a non-empty list of values, when there is one.
    private(set) var valueIndex: String?

    /// A qualifier tested against the timeline's distinct values (`TimelineValues`).
    enum ValueQualifier {
        case agent, host, category

        /// Its `timeline_values.kind`.
        var kind: String { self == .category ? TimelineValues.category : TimelineValues.agent }

        /// `SELECT value …` of the distinct values whose qualifier column contains `needle` (the same
        /// case rules as the row-by-row test), at most `TimelineValues.resolveLimit` + 1 of them.
        func valuesSQL(needle: String) -> (sql: String, values: [SQLiteValue]) {
            let column = self == .host ? FilterSQL.hostOf("value") : "value"
            return ("SELECT value FROM timeline_values WHERE kind = ? AND " + FilterSQL.contains(column: column, term: needle)
                    + " LIMIT \(TimelineValues.resolveLimit + 1)", [.text(kind)] + FilterSQL.containsValues(needle, count: 1))
        }
    }

    /// `qualifierPiece(column, needle)`: the part of a qualifier's needle its index clause looks for (any
    /// substring of 3+ characters will do: the clause only narrows, the LIKE condition decides); the whole
    /// needle by default. `shortTermTrigrams(term)`: the index's trigrams that begin with a term shorter
    /// than a trigram, or nil when the term is not looked up so (`ShortTerms`). `knownMatches`: the rows
    /// the index holds for `matchExpression`, when a probe already read them all (the set then starts from
    /// them instead of asking the index again). `waitingMatches(terms)`: the rows waiting for the index whose
    /// text holds every one of `terms`, when the caller keeps them (`WaitingRowTexts`); nil: tested in SQL.
    init(_ query: TimelineQuery, tokenizer: SearchTokenizer, textTest: TextTest = .fullTextIndex,
         nowMicros: Int64 = Int64(Date().timeIntervalSince1970 * 1_000_000),
         qualifierPiece: (_ column: String, _ needle: String) -> String = { $1 },
         shortTermTrigrams: (_ term: String) -> [String]? = { _ in nil }, knownMatches: [Int64]? = nil,
         waitingMatches: (_ terms: [String]) -> [Int64]? = { _ in nil },
         resolve: (_ qualifier: ValueQualifier, _ needle: String) -> [String]? = { _, _ in nil }) {
        /// Every value any of `needles` matches; nil when one of them is not resolved (tested row by row).
        func valuesOf(_ qualifier: ValueQualifier, _ needles: [String]) -> [String]? {
            let needles = needles.filter { !$0.isEmpty }
            guard !needles.isEmpty else { return nil }
            var all: [String] = []
            for needle in needles {
                guard let found = resolve(qualifier, needle), found.count <= TimelineValues.resolveLimit else { return nil }
                all += found
            }
            return Array(Set(all)).sorted()
        }
        let agentValues = valuesOf(.agent, query.agents), hostValues = valuesOf(.host, query.hosts)
        let categoryValues = valuesOf(.category, query.categories)
        var indexedTerms: [IndexedTerm] = []
        for term in query.terms where !term.isEmpty {
            if textTest == .fullTextIndex, tokenizer == .trigram, term.unicodeScalars.count >= 3 {
                indexedTerms.append(IndexedTerm(term: term, match: Self.phrase(term)))
            } else if textTest == .fullTextIndex, tokenizer == .trigram, let trigrams = shortTermTrigrams(term) {
                // No trigram begins with it: the term's own phrase, too short to match any row.
                let match = trigrams.isEmpty ? Self.phrase(term) : "(" + trigrams.map(Self.phrase).joined(separator: " OR ") + ")"
                indexedTerms.append(IndexedTerm(term: term, match: match))
            } else {
                conditions.append(Self.anyTextColumn(of: "e", t: "t", contains: term))
                values += Self.containsValues(term, count: 5)
                needsEvents = true
            }
        }
        // Qualifiers (3+ characters each) also narrow the match set through their column of the index, so
        // a window or count starts from rows that satisfy them (their LIKE conditions below stay: exact,
        // and they cover rows waiting for the index). One resolved to values is read through its value
        // index instead, unless free text makes a match set anyway: narrowed, a common term beside a rare
        // agent starts from the few rows of both (`agent:agent-7 depl` at 1,000,000 events: 38 ms a
        // keystroke without).
        var columnClauses: [String] = []
        if textTest == .fullTextIndex, tokenizer == .trigram {
            let narrow = { (values: [String]?, needles: [String]) in values == nil || !indexedTerms.isEmpty ? needles : [] }
            for (column, needles) in [("agent_id", narrow(agentValues, query.agents)),
                                      ("agent_id", narrow(hostValues, query.hosts)),
                                      ("category", narrow(categoryValues, query.categories)), ("task_id", query.tasks)]
            where !needles.isEmpty && needles.allSatisfy({ $0.unicodeScalars.count >= 3 }) {
                columnClauses.append("(" + needles.map { "\(column) : " + Self.phrase(qualifierPiece(column, $0)) }
                    .joined(separator: " OR ") + ")")
            }
        }
        if !indexedTerms.isEmpty || !columnClauses.isEmpty {
            addIndexedTerms(indexedTerms, columnClauses: columnClauses, knownMatches: knownMatches,
                            waiting: indexedTerms.isEmpty ? nil : waitingMatches(indexedTerms.map(\.term)))
        }
        if !query.statuses.isEmpty {
            let statuses = query.statuses.map(\.rawValue).sorted()
            conditions.append("t.status IN (" + statuses.map { _ in "?" }.joined(separator: ", ") + ")")
            values += statuses.map { .text($0) }
        }
        if let agentValues { addIn(column: "t.agent_id", index: "timeline_agent", agentValues) }
        else { addSubstring(column: "t.agent_id", any: query.agents) }
        if let hostValues { addIn(column: "t.agent_id", index: "timeline_agent", hostValues) }
        else { addSubstring(column: Self.hostOf("t.agent_id"), any: query.hosts) }
        if let categoryValues { addIn(column: "t.category", index: "timeline_category", categoryValues) }
        else { addSubstring(column: "t.category", any: query.categories) }
        addSubstring(column: "t.task_id", any: query.tasks)
        addExclusions(query, useIndex: textTest == .fullTextIndex && tokenizer == .trigram,
                      waitingMatches: waitingMatches, resolve: resolve)
        if let marked = query.marked {
            conditions.append("t.task_id \(marked ? "IN" : "NOT IN") (SELECT task_id FROM marks)")
        }
        if let since = query.since {
            conditions.append("t.ts_us >= ?")
            values.append(.integer(since.micros(now: nowMicros)))
        }
        if let until = query.until {
            conditions.append("t.ts_us <= ?")
            values.append(.integer(until.micros(now: nowMicros)))
        }
    }

    /// Negated parts (`-word`, `-"phrase"`, `-status:x`, `-agent:x`, …). A negated term of 3+ characters
    /// excludes its match set (the index plus rows waiting for it), so the cost follows its matches;
    /// shorter ones test each row's text.
    private mutating func addExclusions(_ query: TimelineQuery, useIndex: Bool, waitingMatches: ([String]) -> [Int64]?,
                                        resolve: (ValueQualifier, String) -> [String]?) {
        for term in query.excludedTerms where !term.isEmpty {
            if useIndex, term.unicodeScalars.count >= 3 {
                // A row whose index entry is current is tested by the index, a waiting row by its text: each
                // row of the walk tests one set, and no set of waiting rows is built to take from the index's.
                let waiting = Self.waitingRows(matching: [term], known: waitingMatches([term]))
                conditions.append("""
                    NOT (t.indexed_seq IS t.seq AND t.row_id IN (SELECT rowid FROM search WHERE search MATCH ?))
                    AND t.row_id NOT IN (\(waiting.sql))
                    """)
                values.append(.text(Self.phrase(term)))
                values += waiting.values
            } else {
                // IFNULL: a NULL category must not turn "contains nowhere" into "unknown".
                conditions.append("NOT IFNULL(" + Self.anyTextColumn(of: "e", t: "t", contains: term) + ", 0)")
                values += Self.containsValues(term, count: 5)
                needsEvents = true
            }
        }
        if !query.excludedStatuses.isEmpty {
            let statuses = query.excludedStatuses.map(\.rawValue).sorted()
            conditions.append("t.status NOT IN (" + statuses.map { _ in "?" }.joined(separator: ", ") + ")")
            values += statuses.map { .text($0) }
        }
        for (column, needles, qualifier) in [("t.agent_id", query.excludedAgents, ValueQualifier.agent),
                                             ("IFNULL(t.category, '')", query.excludedCategories, .category),
                                             ("t.task_id", query.excludedTasks, nil),
                                             (Self.hostOf("t.agent_id"), query.excludedHosts, .host)] {
            for needle in needles where !needle.isEmpty {
                if let qualifier, let found = resolve(qualifier, needle), found.count <= TimelineValues.resolveLimit {
                    // The values it matches, excluded by equality (none: nothing to exclude). A task without
                    // a category contains no needle, so it stays.
                    guard !found.isEmpty else { continue }
                    let list = "(" + found.map { _ in "?" }.joined(separator: ", ") + ")"
                    conditions.append(qualifier == .category ? "(t.category IS NULL OR t.category NOT IN \(list))"
                                                             : "t.agent_id NOT IN \(list)")
                    values += found.map { .text($0) }
                    continue
                }
                conditions.append("NOT " + Self.contains(column: column, term: needle))
                values += Self.containsValues(needle, count: 1)
            }
        }
    }

    /// SQL for the host of agent id `column`: the text after its last `@`, empty without one (the rule of
    /// `AgentHost.of`). `rtrim` by every character of the id but `@` leaves the id up to its last `@`.
    static func hostOf(_ column: String) -> String {
        "(CASE WHEN instr(\(column), '@') > 0"
            + " THEN substr(\(column), length(rtrim(\(column), replace(\(column), '@', ''))) + 1) ELSE '' END)"
    }

    /// An FTS5 string (phrase) for `text`.
    private static func phrase(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A free-text term answered by the index, and its FTS5 expression.
    private struct IndexedTerm {
        var term: String
        var match: String
    }

    /// Terms (and column clauses of qualifiers) answered by the trigram index; rows still waiting for the
    /// index are matched on the terms, in memory when `known` lists them, else with LIKE (the qualifiers'
    /// own conditions filter them too).
    private mutating func addIndexedTerms(_ terms: [IndexedTerm], columnClauses: [String], knownMatches: [Int64]?,
                                          waiting known: [Int64]?) {
        let match = (terms.map(\.match) + columnClauses).joined(separator: " AND ")
        let waiting = Self.waitingRows(matching: terms.map(\.term), known: known)
        // The index's rows: asked of the index, or the ones a probe already read (a JSON array).
        let indexed = knownMatches == nil
            ? "SELECT rowid AS row_id FROM search WHERE search MATCH ? AND rowid"
            : "SELECT value AS row_id FROM json_each(?) WHERE value"
        let set = """
            \(indexed)
                NOT IN (SELECT row_id FROM timeline WHERE indexed_seq IS NOT seq)
            UNION ALL
            \(waiting.sql)
            """
        matchExpression = match
        let setValues: [SQLiteValue] = [.text(knownMatches.map(JSONIntegers.array) ?? match)] + waiting.values
        matchSetPosition = (conditions.count, values.count..<values.count + setValues.count)
        conditions.append("t.row_id IN (\(set))")
        values += setValues
        matchSet = (set, setValues)
    }

    /// `SELECT row_id …` of the rows waiting for the index whose text holds every one of `terms` (every
    /// waiting row without terms), and its values: the rows `known` lists when given, else tested in SQL.
    private static func waitingRows(matching terms: [String], known: [Int64]?) -> (sql: String, values: [SQLiteValue]) {
        if terms.isEmpty { return ("SELECT w.row_id FROM timeline w WHERE w.indexed_seq IS NOT w.seq", []) }
        if let known { return ("SELECT value AS row_id FROM json_each(?)", [.text(JSONIntegers.array(known))]) }
        return ("SELECT w.row_id FROM timeline w JOIN events we ON we.seq = w.seq WHERE w.indexed_seq IS NOT w.seq AND "
                    + terms.map { anyTextColumn(of: "we", t: "w", contains: $0) }.joined(separator: " AND "),
                terms.flatMap { containsValues($0, count: 5) })
    }

    /// One of the five searchable columns of event alias `e` / timeline alias `t` contains `term`
    /// (its value is bound 5 times: `containsValues`).
    private static func anyTextColumn(of e: String, t: String, contains term: String) -> String {
        let columns = ["\(e).title", "\(e).body", "\(t).agent_id", "\(t).task_id", "\(t).category"]
        return "(" + columns.map { contains(column: $0, term: term) }.joined(separator: " OR ") + ")"
    }

    /// Case-insensitive substring test: LIKE for ASCII terms (fast, exact for ASCII), the Unicode-aware
    /// `tl_icontains` function otherwise.
    static func contains(column: String, term: String) -> String {
        term.utf8.allSatisfy { $0 < 0x80 } ? "\(column) LIKE ? ESCAPE '\\'" : "tl_icontains(\(column), ?)"
    }

    /// The bound value(s) for `contains(column:term:)`.
    static func containsValues(_ term: String, count: Int) -> [SQLiteValue] {
        let value = term.utf8.allSatisfy { $0 < 0x80 } ? likePattern(term) : term
        return Array(repeating: .text(value), count: count)
    }

    /// `column` contains any of `needles` (case-insensitive).
    private mutating func addSubstring(column: String, any needles: [String]) {
        guard !needles.isEmpty else { return }
        conditions.append("(" + needles.map { Self.contains(column: column, term: $0) }.joined(separator: " OR ") + ")")
        for needle in needles { values += Self.containsValues(needle, count: 1) }
    }

    /// `column` equals one of `values` (resolved from a qualifier's needles; none: no row), read through
    /// `index` when the list is not empty.
    private mutating func addIn(column: String, index: String, _ found: [String]) {
        guard !found.isEmpty else { conditions.append("0"); return }
        conditions.append("\(column) IN (" + found.map { _ in "?" }.joined(separator: ", ") + ")")
        values += found.map { .text($0) }
        if valueIndex == nil { valueIndex = index }
    }

    /// `%text%` with LIKE's wildcards and the escape character escaped.
    static func likePattern(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return "%" + escaped + "%"
    }

    /// `FROM …` the match set's rows (the outer loop, read as the index yields them) joined to their
    /// timeline rows `t` (and events `e` when needed), `WHERE` the other conditions: a count that may stop
    /// early never waits for the whole set to be gathered first. Nil without a match set.
    func fromMatchSet() -> (sql: String, values: [SQLiteValue])? {
        guard let set = matchSet, let position = matchSetPosition else { return nil }
        var others = conditions
        others.remove(at: position.condition)
        var otherValues = values
        otherValues.removeSubrange(position.values)
        let sql = " FROM (\(set.sql)) k CROSS JOIN timeline t ON t.row_id = k.row_id"
            + (needsEvents ? " JOIN events e ON e.seq = t.seq" : "")
            + (others.isEmpty ? "" : " WHERE " + others.joined(separator: " AND "))
        return (sql, set.values + otherValues)
    }

    /// `WHERE …` for these conditions plus `extra`, or an empty string.
    func whereClause(adding extra: [String] = []) -> String {
        let all = conditions + extra
        return all.isEmpty ? "" : " WHERE " + all.joined(separator: " AND ")
    }
}
