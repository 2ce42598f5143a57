import TimelineCore

/// A `TimelineQuery` turned into SQL conditions over `timeline t` (and `events e` when text must be read).
///
/// Free-text terms of 3+ characters go through the trigram full-text index (case-insensitive substring);
/// shorter terms, and every term when the index is not trigram, use LIKE over the same five columns
/// (LIKE folds ASCII case only). Qualifiers are case-insensitive substrings (LIKE) on the timeline row.
struct FilterSQL {
    /// Conditions joined with AND.
    var conditions: [String] = []
    var values: [SQLiteValue] = []
    /// Whether a condition reads `e.title` / `e.body` (the query must join `events e`).
    var needsEvents = false

    init(_ query: TimelineQuery, tokenizer: SearchTokenizer) {
        var phrases: [String] = []
        for term in query.terms where !term.isEmpty {
            if tokenizer == .trigram, term.unicodeScalars.count >= 3 {
                phrases.append("\"" + term.replacingOccurrences(of: "\"", with: "\"\"") + "\"")
            } else {
                let pattern = Self.likePattern(term)
                let columns = ["e.title", "e.body", "t.agent_id", "t.task_id", "t.category"]
                conditions.append("(" + columns.map { "\($0) LIKE ? ESCAPE '\\'" }.joined(separator: " OR ") + ")")
                values += Array(repeating: .text(pattern), count: columns.count)
                needsEvents = true
            }
        }
        if !phrases.isEmpty {
            conditions.append("t.row_id IN (SELECT rowid FROM search WHERE search MATCH ?)")
            values.append(.text(phrases.joined(separator: " AND ")))
        }
        if !query.statuses.isEmpty {
            let statuses = query.statuses.map(\.rawValue).sorted()
            conditions.append("t.status IN (" + statuses.map { _ in "?" }.joined(separator: ", ") + ")")
            values += statuses.map { .text($0) }
        }
        addSubstring(column: "t.agent_id", any: query.agents)
        addSubstring(column: "t.category", any: query.categories)
        addSubstring(column: "t.task_id", any: query.tasks)
    }

    /// `column` contains any of `needles` (case-insensitive).
    private mutating func addSubstring(column: String, any needles: [String]) {
        guard !needles.isEmpty else { return }
        conditions.append("(" + needles.map { _ in "\(column) LIKE ? ESCAPE '\\'" }.joined(separator: " OR ") + ")")
        values += needles.map { .text(Self.likePattern($0)) }
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

    /// `WHERE …` for these conditions plus `extra`, or an empty string.
    func whereClause(adding extra: [String] = []) -> String {
        let all = conditions + extra
        return all.isEmpty ? "" : " WHERE " + all.joined(separator: " AND ")
    }
}
