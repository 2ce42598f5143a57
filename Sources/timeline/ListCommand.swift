import ArgumentParser
import Foundation
import TimelineCore
import TimelineStore

/// `timeline list`: the timeline (one row per task, newest first) as a table or JSON lines.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Print the timeline: one row per task, newest first.")

    @OptionGroup var store: StoreOptions

    @Flag(help: "JSON lines (one object per task: the current event's fields plus event_count), for jq.")
    var json = false

    @Option(name: .customLong("status"), parsing: .singleValue,
            help: ArgumentHelp("Only these statuses (repeatable or comma-separated): \(Status.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "status"),
            completion: .list(Status.allCases.map(\.rawValue)))
    var statusTexts: [String] = []

    @Option(help: ArgumentHelp("Only agents whose id contains this text (case-insensitive).", valueName: "text"))
    var agent: String?

    @Option(help: ArgumentHelp("Search text: substrings of title, body, agent, task or category; may hold status:, agent:, category:, task: qualifiers.", valueName: "text"))
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
    }

    /// The filter these options describe.
    var query: TimelineQuery {
        var query = TimelineQuery.parse(search ?? "")
        for text in statusTexts.flatMap({ $0.split(separator: ",") }) {
            if let status = Status(rawValue: text.lowercased()) { query.statuses.insert(status) }
        }
        if let agent, !agent.isEmpty { query.agents.append(agent) }
        return query
    }

    func run() throws {
        guard let timeline = try store.openForReading() else { return }
        let query = self.query
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
        let total = try timeline.count(matching: query)
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
        if total > rows.count { standardError("\(rows.count) of \(total) tasks shown (--limit to see more).") }
    }
}
