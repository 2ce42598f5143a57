import Foundation
import SharedRules

/// A point in time in a query: relative to the moment the query runs (`since:15m`) or absolute.
public enum TimeBound: Sendable, Equatable, Hashable {
    /// This many seconds before "now".
    case ago(seconds: Int64)
    /// Microseconds since the Unix epoch.
    case at(micros: Int64)

    /// The bound as epoch microseconds, relative ones counted back from `nowMicros`.
    public func micros(now nowMicros: Int64) -> Int64 {
        switch self {
        case .ago(let seconds): nowMicros - seconds * 1_000_000
        case .at(let micros): micros
        }
    }
}

/// A parsed filter: free-text terms (substring, case-insensitive, all must match) plus qualifiers.
///
/// The one query syntax of the TUI's `/`, `timeline list QUERY`, `export` and named views:
/// `deploy "dry run" status:error agent:builder category:ci task:T-1 since:15m until:2026-11-20`.
/// Several values of one qualifier are alternatives (`status:error status:warning`); different qualifiers,
/// and every free-text term, all apply. A status qualifier may list values separated by commas
/// (`status:error,warning`). A leading `-` excludes: `-agent:heartbeat`, `-"dry run"`, `-status:info`.
/// Double quotes make a phrase (a term with spaces), also as a value (`category:"code review"`).
/// `since:`/`until:` take a duration back from now (`15m`, `2h`, `30d`), a date (`2026-11-20`, local time;
/// `until:` a date includes that whole day) or an ISO 8601 timestamp; they bound the task's current event.
/// `is:marked` keeps the tasks marked with `m` (or `timeline mark`).
/// `host:laptop` keeps tasks whose agent's host (`AgentHost`: after the `@` of `AGENT@HOST`) contains the
/// text; `project:web` is another name for `category:` (agents' hooks put the project there).
public struct TimelineQuery: Sendable, Equatable, Hashable {
    public var terms: [String]
    public var statuses: Set<Status>
    public var agents: [String]
    public var categories: [String]
    public var tasks: [String]
    /// `host:` values: the agent's host contains one of them (`AgentHost`).
    public var hosts: [String] = []
    /// Free text and phrases none of the row's five text columns may contain.
    public var excludedTerms: [String] = []
    public var excludedStatuses: Set<Status> = []
    public var excludedAgents: [String] = []
    public var excludedCategories: [String] = []
    public var excludedTasks: [String] = []
    public var excludedHosts: [String] = []
    /// `is:marked`: only marked tasks (true), `-is:marked`: only unmarked ones (false).
    public var marked: Bool?
    /// Only tasks whose current event is at or after this time.
    public var since: TimeBound?
    /// Only tasks whose current event is at or before this time.
    public var until: TimeBound?
    /// Tokens that looked like qualifiers but were malformed (e.g. `since:soon`), each with the fix;
    /// they are kept as free text so the query matches nothing rather than everything.
    public var problems: [String] = []

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
        terms.isEmpty && statuses.isEmpty && agents.isEmpty && categories.isEmpty && tasks.isEmpty && hosts.isEmpty
            && excludedTerms.isEmpty && excludedStatuses.isEmpty && excludedAgents.isEmpty
            && excludedCategories.isEmpty && excludedTasks.isEmpty && excludedHosts.isEmpty && since == nil && until == nil && marked == nil
    }

    /// The qualifier names the syntax knows.
    public static let qualifiers = ["status", "agent", "category", "project", "host", "task", "since", "until", "is"]

    /// Parses the query syntax. Unknown `word:value` tokens are free text. An unknown status value
    /// (`status:bogus`) or a malformed time (`since:soon`) is kept as free text, so it matches nothing,
    /// and is listed in `problems`.
    public static func parse(_ text: String, timeZone: TimeZone = .current) -> TimelineQuery {
        var q = TimelineQuery()
        for token in QueryTokenizer.tokens(text) {
            q.add(token, timeZone: timeZone)
        }
        return q
    }

    private mutating func add(_ token: QueryTokenizer.Token, timeZone: TimeZone) {
        let negated = token.negated
        guard let name = token.qualifier else {
            if negated { excludedTerms.append(token.value) } else { terms.append(token.value) }
            return
        }
        let value = token.value
        let literal = (negated ? "-" : "") + name + ":" + value
        if value.isEmpty { return }  // `status:` while typing: no condition yet
        switch name {
        case "status":
            for part in value.lowercased().split(separator: ",") {
                guard let s = Status(rawValue: String(part)) else {
                    problems.append("unknown status \"\(part)\" in \(literal): use one of "
                        + Status.allCases.map(\.rawValue).joined(separator: ", "))
                    terms.append(literal)
                    continue
                }
                if negated { excludedStatuses.insert(s) } else { statuses.insert(s) }
            }
        case "agent": if negated { excludedAgents.append(value) } else { agents.append(value) }
        case "category", "project": if negated { excludedCategories.append(value) } else { categories.append(value) }
        case "task": if negated { excludedTasks.append(value) } else { tasks.append(value) }
        case "host": if negated { excludedHosts.append(value) } else { hosts.append(value) }
        case "is":
            guard value.lowercased() == "marked" else {
                problems.append("\(literal) is unknown: the only one is is:marked (tasks marked with m)")
                terms.append(literal)
                return
            }
            marked = !negated
        case "since", "until":
            guard !negated, let bound = Self.timeBound(value, isUntil: name == "until", timeZone: timeZone) else {
                problems.append(negated
                    ? "\(literal) cannot be negated: use \(name == "since" ? "until" : "since"):\(value) instead"
                    : "\(literal) is not a time: use \(DurationText.help), a date (2026-11-20) or an ISO 8601 timestamp")
                terms.append(literal)
                return
            }
            if name == "since" { since = bound } else { until = bound }
        default:
            break  // the tokenizer names only `qualifiers`
        }
    }

    /// `15m` → 15 minutes ago; `2026-11-20` → that day's start (its end for `until:`) in `timeZone`;
    /// an ISO 8601 timestamp → that instant.
    static func timeBound(_ text: String, isUntil: Bool, timeZone: TimeZone) -> TimeBound? {
        if let seconds = DurationText.seconds(text) { return .ago(seconds: seconds) }
        if let micros = Timestamp.parseMicros(text) { return .at(micros: micros) }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        guard let start = calendar.date(from: DateComponents(year: year, month: month, day: day)),
              calendar.component(.day, from: start) == day
        else { return nil }
        let startMicros = Int64((start.timeIntervalSince1970 * 1_000_000).rounded())
        guard isUntil else { return .at(micros: startMicros) }
        let next = calendar.date(byAdding: .day, value: 1, to: start)!
        return .at(micros: Int64((next.timeIntervalSince1970 * 1_000_000).rounded()) - 1)
    }
}

/// Splits query text into tokens: words, `"quoted phrases"`, `name:value` and `name:"quoted value"`,
/// each optionally negated by a leading `-`.
enum QueryTokenizer {
    struct Token: Equatable {
        var negated: Bool
        /// Lowercased qualifier name when the token is `name:value` with a known name.
        var qualifier: String?
        var value: String
    }

    static func tokens(_ text: String) -> [Token] {
        var tokens: [Token] = []
        var chars = Array(text)[...]
        while true {
            while let c = chars.first, c == " " || c == "\t" { chars.removeFirst() }
            guard !chars.isEmpty else { break }
            var negated = false
            if chars.first == "-", chars.count > 1, chars[chars.startIndex + 1] != " " {
                negated = true
                chars.removeFirst()
            }
            if chars.first == "\"" {
                chars.removeFirst()
                let phrase = quoted(&chars)
                if !phrase.isEmpty { tokens.append(Token(negated: negated, qualifier: nil, value: phrase)) }
                continue
            }
            var word = ""
            while let c = chars.first, c != " ", c != "\t" {
                if c == ":", TimelineQuery.qualifiers.contains(word.lowercased()) {
                    let name = word.lowercased()
                    chars.removeFirst()
                    let value: String
                    if chars.first == "\"" {
                        chars.removeFirst()
                        value = quoted(&chars)
                    } else {
                        value = String(chars.prefix { $0 != " " && $0 != "\t" })
                        chars.removeFirst(value.count)
                    }
                    tokens.append(Token(negated: negated, qualifier: name, value: value))
                    word = ""
                    break
                }
                word.append(c)
                chars.removeFirst()
            }
            if !word.isEmpty { tokens.append(Token(negated: negated, qualifier: nil, value: word)) }
        }
        return tokens
    }

    /// The text up to the closing quote (or the end), consumed; `""` inside a phrase is one quote.
    private static func quoted(_ chars: inout ArraySlice<Character>) -> String {
        var phrase = ""
        while let c = chars.first {
            chars.removeFirst()
            if c == "\"" {
                if chars.first == "\"" { phrase.append("\""); chars.removeFirst(); continue }
                break
            }
            phrase.append(c)
        }
        return phrase
    }
}
