import TimelineCore
import Foundation

/// The store queries the current state implies (search text, its mode, and the 1–5 status filter).
extension AppState {
    /// Query for the rows listed: filter-mode search plus the status filter.
    public var listQuery: TimelineQuery {
        var q = search.kind == .filter ? search.query : TimelineQuery()
        q.statuses = Self.combine(q.statuses, statusFilter)
        return q
    }

    /// Query for the per-status header counts: the list query without any status restriction.
    public var statusCountQuery: TimelineQuery {
        var q = search.kind == .filter ? search.query : TimelineQuery()
        q.statuses = []
        return q
    }

    /// Highlight-mode matches: the search within the listed rows; nil when not highlighting.
    public var matchQuery: TimelineQuery? {
        guard search.kind == .highlight, !search.query.isEmpty else { return nil }
        var q = search.query
        q.statuses = Self.combine(q.statuses, statusFilter)
        return q
    }

    /// True when search statuses and the status filter exclude each other: nothing can match.
    public var listMatchesNothing: Bool {
        let a = search.kind == .filter ? search.query.statuses : []
        return !a.isEmpty && !statusFilter.isEmpty && a.isDisjoint(with: statusFilter)
    }

    private static func combine(_ a: Set<Status>, _ b: Set<Status>) -> Set<Status> {
        if a.isEmpty { return b }
        if b.isEmpty { return a }
        return a.intersection(b)
    }
}

/// Does a row satisfy a query? Mirrors the store's rules (substring, case-insensitive) for highlighting.
public enum QueryMatcher {
    public static func matches(_ row: TimelineRow, _ q: TimelineQuery, nowMicros: Int64, marks: Set<String> = []) -> Bool {
        let e = row.event
        if let marked = q.marked, marks.contains(e.taskID) != marked { return false }
        if !q.statuses.isEmpty && !q.statuses.contains(e.status) { return false }
        if q.excludedStatuses.contains(e.status) { return false }
        if !q.agents.isEmpty && !q.agents.contains(where: { contains(e.agentID, $0) }) { return false }
        if !q.categories.isEmpty && !q.categories.contains(where: { contains(e.category ?? "", $0) }) { return false }
        if !q.tasks.isEmpty && !q.tasks.contains(where: { contains(e.taskID, $0) }) { return false }
        if q.excludedAgents.contains(where: { contains(e.agentID, $0) }) { return false }
        if !q.hosts.isEmpty && !q.hosts.contains(where: { contains(AgentHost.of(e.agentID), $0) }) { return false }
        if q.excludedHosts.contains(where: { contains(AgentHost.of(e.agentID), $0) }) { return false }
        if q.excludedCategories.contains(where: { contains(e.category ?? "", $0) }) { return false }
        if q.excludedTasks.contains(where: { contains(e.taskID, $0) }) { return false }
        if let since = q.since, e.timestampMicros < since.micros(now: nowMicros) { return false }
        if let until = q.until, e.timestampMicros > until.micros(now: nowMicros) { return false }
        let fields = [e.title, e.body, e.agentID, e.taskID, e.category ?? ""]
        if q.excludedTerms.contains(where: { term in fields.contains { contains($0, term) } }) { return false }
        return q.terms.allSatisfy { term in fields.contains { contains($0, term) } }
    }

    /// Grapheme indices of `text` covered by any free-text term (for highlighting).
    public static func highlightedIndices(in text: String, terms: [String]) -> Set<Int> {
        guard !terms.isEmpty else { return [] }
        let chars = Array(text.lowercased())
        let original = Array(text)
        guard chars.count == original.count else { return [] }
        var hits = Set<Int>()
        for term in terms {
            let t = Array(term.lowercased())
            guard !t.isEmpty, t.count <= chars.count else { continue }
            for start in 0...(chars.count - t.count) where Array(chars[start..<start + t.count]) == t {
                hits.formUnion(start..<start + t.count)
            }
        }
        return hits
    }

    private static func contains(_ haystack: String, _ needle: String) -> Bool {
        haystack.range(of: needle, options: .caseInsensitive) != nil
    }
}
