import TimelineCore

/// Draws one timeline row at line `y` within columns `x ..< x + layout.width`.
func renderRow(_ row: TimelineRow, into screen: inout Screen, x: Int, y: Int, layout: RowLayout,
               state: AppState, selected: Bool) {
    let e = row.event
    let base = selected ? Style(bg: .selection, bold: true) : Style.plain
    screen.fill(x: x, y: y, width: layout.width, style: base)
    let liveness = Liveness(row, nowMicros: state.nowMicros, thresholds: state.runThresholds)
    let abandoned = liveness == .stale || liveness == .timedOut
    let statusStyle = Style(fg: abandoned ? .muted : e.status.colorRole, bg: base.bg, bold: true)
    let glyph = StatusGlyph.glyph(for: row, nowMicros: state.nowMicros, thresholds: state.runThresholds)
    screen.put(String(glyph), x: x + 1, y: y, style: statusStyle)
    if row.unread { screen.put(UnreadMark.glyph, x: x + 2, y: y, style: Style(fg: .accent, bg: base.bg, bold: true)) }
    // Highlight mode: a bar in the first column marks every matching task (even when the match is in the body).
    let highlighted = state.matchQuery.map { QueryMatcher.matches(row, $0, nowMicros: state.nowMicros, marks: state.marks) } ?? false
    if state.marks.contains(row.taskID) {
        // A marked task (m): a star in the first column (in the highlight colour when it also matches).
        screen.put("*", x: x, y: y, style: Style(fg: highlighted ? .highlight : .accent, bg: base.bg, bold: true))
    } else if highlighted {
        screen.put("▌", x: x, y: y, style: Style(fg: .highlight, bg: base.bg, bold: true))
    }

    var col = x + 3
    let time = TextWidth.padLeft(TimeText.row(e.timestampMicros, state: state, width: layout.time), to: layout.time)
    screen.put(time, x: col, y: y, style: Style(fg: .muted, bg: base.bg, bold: selected), limit: layout.time)
    col += layout.time + 2

    let terms = state.search.query.terms
    let highlight = Style(fg: .highlight, bg: base.bg, bold: true, underline: true)
    func putText(_ raw: String, width: Int, style: Style) {
        guard width > 0 else { return }
        let text = TextWidth.truncate(TextWidth.safe(raw), to: width)
        let hits = QueryMatcher.highlightedIndices(in: text, terms: terms)
        screen.put(text, x: col, y: y, limit: width) { hits.contains($0) ? highlight : style }
    }

    if layout.agent > 0 {
        putText(e.agentID, width: layout.agent, style: Style(fg: .accent, bg: base.bg, bold: selected))
        col += layout.agent + 2
    }

    let showProgress = abandoned || (e.progress != nil && e.status == .inProgress)
    var titleWidth = layout.titleWidth(withProgress: showProgress)
    // Running rows: elapsed time (and an ETA) right after the title, when the title keeps room.
    let run = abandoned ? nil : RunText.row(row, state: state)
    let runWidth = run.map { TextWidth.of($0) + 2 } ?? 0
    let withRun = run != nil && titleWidth - runWidth >= 12
    if withRun { titleWidth -= runWidth }
    var titleStyle = abandoned ? Style(bg: base.bg, bold: selected, dim: true) : base
    if row.unread { titleStyle.bold = true }
    var title = e.title
    if e.status == .needsInput {
        // Waiting rows stand out in every mode; once answered they say so until the agent's next event.
        if state.answering.answered(e) {
            title = "answered · " + title
            titleStyle = Style(fg: .muted, bg: base.bg, bold: selected || row.unread)
        } else {
            titleStyle = Style(fg: .needsInput, bg: base.bg, bold: true)
        }
    }
    putText(title, width: titleWidth, style: titleStyle)
    col += titleWidth + 2
    if withRun, let run {
        screen.put(TextWidth.padLeft(run, to: runWidth - 2), x: col, y: y, style: Style(fg: .muted, bg: base.bg, bold: selected))
        col += runWidth
    }

    if showProgress {
        if liveness == .timedOut {
            let text = layout.progress >= 9 ? "timed out" : "t/o"
            screen.put(TextWidth.pad(text, to: layout.progress), x: col, y: y,
                       style: Style(fg: .warning, bg: base.bg, bold: true), limit: layout.progress)
        } else if liveness == .stale {
            screen.put(TextWidth.pad("stale", to: layout.progress), x: col, y: y,
                       style: Style(fg: .warning, bg: base.bg, dim: true), limit: layout.progress)
        } else if let p = e.progress {
            let bar = layout.progress >= 11 ? StatusGlyph.progressBar(p, cells: 6) : TextWidth.padLeft("\(Int(p.rounded()))%", to: 4)
            screen.put(bar, x: col, y: y, style: Style(fg: .inProgress, bg: base.bg), limit: layout.progress)
        }
        col += layout.progress + 2
    }

    if layout.category > 0, let category = e.category {
        let cx = x + layout.width - 1 - layout.category
        col = cx
        putText(category, width: layout.category, style: Style(fg: .muted, bg: base.bg, bold: selected))
    }
}
