import TimelineCore

/// Plain-text rows for `list` and `history`: time, status, agent, task, progress, title, category.
/// Every piece of event text goes through `DisplayText` (sanitized, cut by display width); colours only
/// when asked.
struct EventTable {
    let color: Bool
    /// Terminal width to fit rows into, nil for no limit (output to a pipe or file).
    let width: Int?
    let showTask: Bool

    private static let timeWidth = 19
    private static let statusWidth = 11
    private static let idWidth = 20
    /// Widest title (with its category) when the output is not a terminal.
    static let pipedTitleWidth = 160

    var header: String {
        var columns = [pad("TIME", Self.timeWidth), pad("STATUS", Self.statusWidth), pad("AGENT", Self.idWidth)]
        if showTask { columns.append(pad("TASK", Self.idWidth)) }
        columns.append("TITLE")
        return TerminalStyle.paint(columns.joined(separator: " "), TerminalStyle.dim, enabled: color)
    }

    /// One event as a row; `suffix` (e.g. `(3 events)`) follows the title.
    func row(_ event: Event, suffix: String = "") -> String {
        let status = TerminalStyle.paint(pad(event.status.rawValue, Self.statusWidth),
                                         TerminalStyle.color(of: event.status), enabled: color)
        var prefix = TimeFormat.absolute(micros: event.timestampMicros, utc: false) + " " + status + " " + DisplayText.fit(event.agentID, toWidth: Self.idWidth) + " "
        var used = Self.timeWidth + 1 + Self.statusWidth + 1 + Self.idWidth + 1
        if showTask {
            prefix += DisplayText.fit(event.taskID, toWidth: Self.idWidth) + " "
            used += Self.idWidth + 1
        }
        var title = DisplayText.sanitize(event.title)
        if let progress = event.progress, event.status == .inProgress { title = "[\(Int(progress.rounded()))%] " + title }
        var tail = ""
        if let category = event.category, !category.isEmpty { tail += " #" + DisplayText.sanitize(category) }
        tail += suffix
        // Table rows stay one readable line even in a pipe: a long title is cut (`--json` keeps it whole).
        let room = width.map { max(10, $0 - used) } ?? Self.pipedTitleWidth
        if DisplayText.width(of: title + tail) > room {
            title = DisplayText.truncate(title + tail, toWidth: room)
            tail = ""
        }
        return prefix + title + TerminalStyle.paint(tail, TerminalStyle.dim, enabled: color && !tail.isEmpty)
    }

    /// Trusted text (labels, status names) padded to `width` columns.
    private func pad(_ text: String, _ width: Int) -> String { DisplayText.pad(text, toWidth: width) }
}
