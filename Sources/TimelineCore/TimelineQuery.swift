/// A parsed filter: free-text terms (substring, case-insensitive, all must match) plus qualifiers.
///
/// Syntax: `deploy status:error agent:builder category:ci task:T-1`. Several values of one
/// qualifier are alternatives (`status:error status:warning`); different qualifiers all apply.
/// A status qualifier may list several values separated by commas (`status:error,warning`).
public struct TimelineQuery: Sendable, Equatable, Hashable {
    public var terms: [String]
    public var statuses: Set<Status>
    public var agents: [String]
    public var categories: [String]
    public var tasks: [String]

    public init(
        terms: [String] = [], statuses: Set<Status> = [], agents: [String] = [],
        categories: [String] = [], tasks: [String] = []
    ) {
        self.terms = terms
        self.statuses = statuses
        self.agents = agents
        self.categories = categories
        self.tasks = tasks
    }

    /// True when the query matches everything.
    public var isEmpty: Bool {
        terms.isEmpty && statuses.isEmpty && agents.isEmpty && categories.isEmpty && tasks.isEmpty
    }

    /// Parses the search-box syntax. Unknown `word:value` tokens are free text.
    /// An unknown status value (`status:bogus`) is kept as free text so it simply matches nothing.
    public static func parse(_ text: String) -> TimelineQuery {
        var q = TimelineQuery()
        for token in text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init) {
            guard let colon = token.firstIndex(of: ":") else {
                q.terms.append(token)
                continue
            }
            let name = token[..<colon].lowercased()
            let value = String(token[token.index(after: colon)...])
            if value.isEmpty {
                if !["status", "agent", "category", "task"].contains(name) { q.terms.append(token) }
                continue
            }
            switch name {
            case "status":
                for part in value.lowercased().split(separator: ",") {
                    if let s = Status(rawValue: String(part)) { q.statuses.insert(s) } else { q.terms.append(token) }
                }
            case "agent": q.agents.append(value)
            case "category": q.categories.append(value)
            case "task": q.tasks.append(value)
            default: q.terms.append(token)
            }
        }
        return q
    }
}
