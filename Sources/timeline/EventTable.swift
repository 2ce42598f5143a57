import TimelineCore

/// Plain-text rows for `list` and `history`: time, status, agent, task, progress, title, category.
/// Every piece of event text is sanitized; colours only when asked.
struct EventTable {
    let color: Bool
    /// Terminal width to fit titles into, nil for no limit (output to a pipe or file).
    let width: Int?
    let showTask: Bool

    private static let statusWidth = 11
    private static let idWidth = 20

    var header: String {
        var columns = ["TIME".padded(19), "STATUS".padded(Self.statusWidth), "AGENT".padded(Self.idWidth)]
        if showTask { columns.append("TASK".padded(Self.idWidth)) }
        columns.append("TITLE")
        return TerminalStyle.paint(columns.joined(separator: " "), TerminalStyle.dim, enabled: color)
    }

    /// One event as a row; `suffix` (e.g. `(3 events)`) follows the title.
    func row(_ event: Event, suffix: String = "") -> String {
        let clean = ProvisionalDisplayText.sanitize  // replace with DisplayText.sanitize
        let status = TerminalStyle.paint(event.status.rawValue.padded(Self.statusWidth),
                                         TerminalStyle.color(of: event.status), enabled: color)
        var prefix = localTime(event.timestampMicros) + " " + status + " "
            + ProvisionalDisplayText.truncate(clean(event.agentID), to: Self.idWidth).padded(Self.idWidth) + " "
        var used = 19 + 1 + Self.statusWidth + 1 + Self.idWidth + 1
        if showTask {
            prefix += ProvisionalDisplayText.truncate(clean(event.taskID), to: Self.idWidth).padded(Self.idWidth) + " "
            used += Self.idWidth + 1
        }
        var title = clean(event.title)
        if let progress = event.progress, event.status == .inProgress { title = "[\(Int(progress.rounded()))%] " + title }
        var tail = ""
        if let category = event.category, !category.isEmpty { tail += " #" + clean(category) }
        tail += suffix
        if let width {
            let room = max(10, width - used)
            let full = title + tail
            if full.count > room {
                title = ProvisionalDisplayText.truncate(full, to: room)
                tail = ""
            }
        }
        return prefix + title + TerminalStyle.paint(tail, TerminalStyle.dim, enabled: color && !tail.isEmpty)
    }
}

extension String {
    /// Padded with spaces to `width` characters (not truncated).
    func padded(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
