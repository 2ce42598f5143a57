import SharedRules

/// A readable Markdown report of tasks' histories (`timeline export --format markdown`, the TUI's `x`).
///
/// One section per task (its current title as the heading, then status, agent, category and event count),
/// then each event oldest first: time (UTC), status, agent, title, progress, and the body as an indented
/// code block. Text is sanitized (`DisplayText`) so the report is safe to print, and Markdown's special
/// characters in titles are escaped.
public struct MarkdownReport {
    private var output: String = ""

    public init(title: String = "Timeline export") {
        output = "# \(Self.escape(title))\n\nTimes are UTC.\n"
    }

    /// A report without its heading, for writing a long report one task at a time.
    public static func continuing() -> MarkdownReport {
        var report = MarkdownReport()
        report.output = ""
        return report
    }

    /// Adds one task's section; `events` in any order (sorted here by time, then arrival order).
    public mutating func addTask(_ events: [(event: Event, seq: Int64)]) {
        let sorted = events.sorted { ($0.event.timestampMicros, $0.seq) < ($1.event.timestampMicros, $1.seq) }
        guard let current = sorted.last?.event else { return }
        output += "\n## \(Self.escape(current.taskID)): \(Self.escape(current.title))\n\n"
        var facts = ["**\(current.status.rawValue)**", "agent \(Self.escape(current.agentID))"]
        if let category = current.category { facts.append("category \(Self.escape(category))") }
        facts.append(sorted.count == 1 ? "1 event" : "\(sorted.count) events")
        facts.append("last update \(Self.time(current.timestampMicros))")
        output += facts.joined(separator: " · ") + "\n"
        for (event, _) in sorted {
            output += "\n### \(Self.time(event.timestampMicros)) · \(event.status.rawValue) · \(Self.escape(event.agentID))\n\n"
            var line = Self.escape(event.title)
            if let progress = event.progress { line += " (progress \(Int(progress.rounded()))%)" }
            output += line + "\n"
            let body = DisplayText.sanitizeLines(event.body)
            if body.contains(where: { !$0.isEmpty }) {
                output += "\n" + body.map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n") + "\n"
            }
        }
    }

    /// The report so far.
    public var text: String { output }

    /// `2026-11-20 10:00:00 UTC`.
    static func time(_ micros: Int64) -> String { TimeFormat.absolute(micros: micros, utc: true) + " UTC" }

    /// Sanitized text with Markdown's inline special characters escaped.
    static func escape(_ raw: String) -> String {
        var out = ""
        for character in DisplayText.sanitize(raw) {
            if "\\`*_[]<>#|!~".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
