import TimelineCore

/// A line of the detail view: styled segments.
struct StyledLine: Equatable {
    var segments: [(String, Style)]
    init(_ segments: [(String, Style)] = []) { self.segments = segments }
    static func == (a: StyledLine, b: StyledLine) -> Bool {
        a.segments.map(\.0) == b.segments.map(\.0) && a.segments.map(\.1) == b.segments.map(\.1)
    }
}

/// The detail view's content (fields, wrapped body, history), shared by `reduce` (scroll limits) and `render`.
enum DetailLayout {
    /// Where the detail pane sits: the right part in split view, else the whole list area.
    static func paneX(_ s: AppState) -> Int {
        s.splitDetail ? Layout.listWidth(width: s.width, split: true) + 1 : 0
    }

    static func contentWidth(_ s: AppState) -> Int { max(1, s.width - paneX(s) - 2) }

    /// Lines of text shown at once: all of the pane, less its last line when the content overflows (that
    /// line holds the position indicator, so the indicator never covers text).
    static func visibleLines(_ s: AppState, total: Int) -> Int {
        total > s.listHeight ? max(1, s.listHeight - 1) : s.listHeight
    }

    static func lines(_ s: AppState, width: Int) -> [StyledLine] {
        guard let d = s.detail else { return [] }
        guard let row = d.row else { return [StyledLine([("Task \(TextWidth.safe(d.taskID)) not found", Style(fg: .muted))])] }
        let e = row.event
        let label = Style(fg: .muted)
        var out: [StyledLine] = []
        let titleLines = TextWidth.wrap(TextWidth.safe(e.title), to: max(1, width - 2))
        for (i, line) in titleLines.enumerated() {
            let lead = i == 0 ? "\(StatusGlyph.glyph(for: row, nowMicros: s.nowMicros, thresholds: s.runThresholds)) " : "  "
            out.append(StyledLine([(lead, Style(fg: e.status.colorRole, bold: true)), (line, Style(bold: true))]))
        }
        out.append(StyledLine())
        out += answerLines(s, event: e, width: width)
        func field(_ name: String, _ value: String, _ style: Style = .plain) {
            let valueWidth = max(1, width - 11)
            for (i, piece) in TextWidth.wrap(TextWidth.safe(value), to: valueWidth).enumerated() {
                out.append(StyledLine([(TextWidth.pad(i == 0 ? name : "", to: 11), label), (piece, style)]))
            }
        }
        field("Status", e.status.name, Style(fg: e.status.colorRole, bold: true))
        field("Task", e.taskID)
        field("Agent", e.agentID, Style(fg: .accent))
        if let c = e.category { field("Category", c) }
        func when(_ micros: Int64) -> String {
            return "\(Times.absolute(micros, s))  (\(Times.ago(micros, s)))"
        }
        if let first = row.firstMicros {
            field("Started", when(first))
            field("Updated", when(e.timestampMicros))
        } else {
            field("Time", when(e.timestampMicros))
        }
        for (name, value) in RunText.detailFields(row, state: s) { field(name, value) }
        if let p = e.progress { field("Progress", StatusGlyph.progressBar(p, cells: 10), Style(fg: .inProgress)) }
        switch Liveness(row, nowMicros: s.nowMicros, thresholds: s.runThresholds) {
        case .live: field("Activity", "live: updates are arriving", Style(fg: .inProgress))
        case .stale:
            field("Activity", "stale: no update for over \(DurationText.span(micros: s.runThresholds.staleSeconds * 1_000_000))",
                  Style(fg: .warning))
        case .timedOut:
            field("Activity", "timed out: running for over \(DurationText.span(micros: s.runThresholds.maxLifetimeSeconds * 1_000_000)) (the viewer's judgement; the agent reported no error)",
                  Style(fg: .warning, bold: true))
        case .quiet, .notRunning: break
        }
        field("Event id", e.id, label)
        field("Received", Times.absolute(row.receivedMicros, s), label)
        if let delivery = e.delivery {
            field("Queue", QueueText.describe(delivery, receivedMicros: row.receivedMicros),
                  delivery.isFlagged ? Style(fg: .warning, bold: true) : label)
        }
        out.append(StyledLine())
        out.append(StyledLine([("Body", Style(fg: .accent, bold: true))]))
        let unfolded = d.unfolded.flatMap { $0.eventID == e.id && $0.width == width ? $0 : nil }
        let screen = visibleLines(s, total: .max)  // a folded body overflows: the indicator takes a line
        if e.body.isEmpty {
            out.append(StyledLine([("(empty)", label)]))
        } else {
            // Folded, the body fills the rest of the first screen and its `z: expand` note is the last line.
            let firstScreen = max(3, screen - out.count - 1)
            let body = DetailFold.lines(e.body, width: width, screen: firstScreen, expanded: d.expanded, cached: unfolded?.body)
            for line in body.lines { out.append(StyledLine([(line, .plain)])) }
            if let hidden = body.hiddenBytes { out.append(StyledLine([(DetailFold.note(hiddenBytes: hidden), Style(fg: .accent))])) }
        }
        out.append(StyledLine())
        let count = d.loaded ? d.history.count : row.eventCount
        out.append(StyledLine([("History", Style(fg: .accent, bold: true)),
                               (" · \(count) event\(count == 1 ? "" : "s"), newest first", label)]))
        if !d.loaded { out.append(StyledLine([("loading…", label)])) }
        for h in d.history {
            let time = TextWidth.padLeft(s.absoluteTime ? Times.absolute(h.timestampMicros, s)
                                                        : Times.relative(h.timestampMicros, s),
                                         to: s.absoluteTime ? 19 : 4)
            let status = TextWidth.pad(h.status.name, to: 12)
            let progress = h.progress.map { " \(Int($0.rounded()))%" } ?? ""
            let used = 2 + TextWidth.of(time) + 2 + 12
            let title = TextWidth.truncate(TextWidth.safe(h.title) + progress, to: max(1, width - used))
            out.append(StyledLine([("\(StatusGlyph.glyph(h.status)) ", Style(fg: h.status.colorRole, bold: true)),
                                   (time + "  ", label), (status, Style(fg: h.status.colorRole)), (title, .plain)]))
        }
        out.append(StyledLine())
        out.append(StyledLine([("Raw payload", Style(fg: .accent, bold: true)), (" · unknown fields kept", label)]))
        let raw = DetailFold.lines(e.rawJSON, width: width, screen: screen, expanded: d.expanded, cached: unfolded?.raw)
        for line in raw.lines { out.append(StyledLine([(line, label)])) }
        if let hidden = raw.hiddenBytes { out.append(StyledLine([(DetailFold.note(hiddenBytes: hidden), Style(fg: .accent))])) }
        return out
    }
}

/// Draws the detail pane (split or full-screen) at lines 1 ..< height-1.
func renderDetail(_ s: AppState, into screen: inout Screen) {
    guard let d = s.detail else { return }
    let x0 = DetailLayout.paneX(s)
    if s.splitDetail {
        for y in 1...max(1, s.listHeight) where y < screen.height - 1 {
            screen.put("│", x: x0 - 1, y: y, style: Style(fg: .border))
        }
    }
    screen.fill(x: x0, y: 1, width: screen.width - x0, height: s.listHeight, style: .plain)
    let width = DetailLayout.contentWidth(s)
    let lines = DetailLayout.lines(s, width: width)
    let visible = DetailLayout.visibleLines(s, total: lines.count)
    let scroll = min(d.scroll, max(0, lines.count - visible))
    for i in 0..<visible where scroll + i < lines.count {
        var x = x0 + 1
        for (text, style) in lines[scroll + i].segments {
            x += screen.put(text, x: x, y: 1 + i, style: style, limit: x0 + 1 + width - x)
        }
    }
    if lines.count > visible {
        let more = "\(scroll + 1)-\(min(lines.count, scroll + visible))/\(lines.count)"
        let hint = s.splitDetail ? "J/K " : "j/k "
        let text = TextWidth.of(hint + more) < width ? hint + more : more
        screen.put(text, x: max(x0 + 1, screen.width - TextWidth.of(text) - 1), y: 1 + visible,
                   style: Style(fg: .muted), limit: width)
    }
}
