import ArgumentParser
import Foundation
import TimelineCore
import TimelineStore

/// `timeline list`: the timeline (one row per task, newest first) as a table or JSON lines.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Print the timeline: one row per task, newest first.",
        discussion: """
            QUERY uses the search syntax of the TUI's `/`: free text (every word must occur in the title, body, \
            agent, task or category, case-insensitive), "quoted phrases", status:error,warning, agent:TEXT, host:TEXT, \
            category:TEXT (or project:TEXT), task:TEXT, since:15m / since:2026-11-20 / until:…, and a leading - to exclude \
            (-agent:heartbeat, -"dry run"). Quote the query for the shell: timeline list 'deploy -"dry run"'.
            """)

    @OptionGroup var store: StoreOptions

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The query (words are joined with spaces).", valueName: "query"))
    var queryWords: [String] = []

    @Option(help: ArgumentHelp("A named view from the config file ([views.NAME]); QUERY, if any, is added to it.", valueName: "name"))
    var view: String?

    @Flag(help: "JSON lines (one object per task: the current event's fields plus event_count), for jq.")
    var json = false

    @Option(name: .customLong("status"), parsing: .singleValue,
            help: ArgumentHelp("Only these statuses (repeatable or comma-separated): \(Status.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "status"),
            completion: .list(Status.allCases.map(\.rawValue)))
    var statusTexts: [String] = []

    @Option(help: ArgumentHelp("Only agents whose id contains this text (case-insensitive).", valueName: "text"))
    var agent: String?

    @Option(help: ArgumentHelp("Search text, like QUERY.", valueName: "text"))
    var search: String?

    @Flag(name: .customLong("no-color"), help: "No colours (also with NO_COLOR set or TERM=dumb).")
    var noColor = false

    @Option(help: "Print at most this many rows.")
    var limit: Int = 50

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1.") }
        for text in statusTexts.flatMap({ $0.split(separator: ",") }) where Status(rawValue: text.lowercased()) == nil {
            throw ValidationError("Unknown status \"\(text)\": use one of \(Status.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        try QueryWords.validate(queryWords)
        if let problem = TimelineQuery.parse(queryText(viewQuery: "")).problems.first {
            throw ValidationError("Query: \(DisplayText.sanitize(problem)).")
        }
    }

    /// The query text: the view's, the arguments and `--search`, joined.
    func queryText(viewQuery: String) -> String {
        // `--` (which ends options for the shell user) reaches the words with `.allUnrecognized`: drop it.
        ([viewQuery] + queryWords.filter { $0 != "--" } + [search ?? ""]).filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The filter these options describe.
    func query() throws -> TimelineQuery {
        var query = TimelineQuery.parse(queryText(viewQuery: try NamedView.query(view)))
        for text in statusTexts.flatMap({ $0.split(separator: ",") }) {
            if let status = Status(rawValue: text.lowercased()) { query.statuses.insert(status) }
        }
        if let agent, !agent.isEmpty { query.agents.append(agent) }
        return query
    }

    func run() throws {
        try list()
    }

    private func list() throws {
        let query = try self.query()
        guard let timeline = try store.openForReading() else { return }
        if !query.terms.isEmpty, timeline.searchTokenizer != .trigram {
            standardError("Note: this SQLite has no trigram tokenizer, so search scans every row with LIKE (slower on big histories).")
        }
        let rows = try timeline.rows(matching: query, olderThan: nil, limit: limit)
        if json {
            for row in rows {
                print(try EventJSONLine.line(EventJSONLine.object(row.event, seq: row.seq, receivedMicros: row.receivedMicros,
                                                                  extra: ["event_count": row.eventCount])))
            }
            return
        }
        // Exact when the store keeps it, else bounded: the cost must not grow with the history.
        let exact = timeline.keepsCount(of: query)
        let total = try exact ? timeline.count(matching: query) : timeline.count(matching: query, upTo: Self.countCap + 1)
        if rows.isEmpty {
            standardError(query.isEmpty ? "The timeline is empty." : "No task matches.")
            return
        }
        let table = EventTable(color: TerminalStyle.stdoutWantsColor && !noColor, width: TerminalStyle.columns(of: STDOUT_FILENO),
                               showTask: true)
        print(table.header)
        for row in rows {
            print(table.row(row.event, suffix: row.eventCount > 1 ? " (\(row.eventCount) events)" : ""))
        }
        if total > rows.count {
            let of = !exact && total > Self.countCap ? "more than \(Self.countCap)" : "\(total)"
            standardError("\(rows.count) of \(of) tasks shown (--limit to see more).")
        }
    }

    /// Most matches counted for the "N of M tasks shown" line.
    static let countCap = 1_000
}
