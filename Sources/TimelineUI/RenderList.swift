import TimelineCore

/// Draws the visible part of the window (or the empty/loading state) in the list area.
func renderList(_ state: AppState, into screen: inout Screen, x: Int, width: Int) {
    let top = state.listTop
    let height = state.listHeight
    guard state.loadedOnce else {
        screen.put("Loading…", x: x + 2, y: top + 1, style: Style(fg: .muted))
        return
    }
    guard !state.window.isEmpty else {
        renderEmpty(state, into: &screen, x: x, width: width)
        return
    }
    let layout = RowLayout(width: width, absoluteTime: state.absoluteTime)
    renderPinned(state, into: &screen, x: x, width: width, layout: layout)
    let first = state.selected - state.selectedLine
    for line in 0..<height {
        let index = first + line
        guard index >= 0, index < state.window.count else { continue }
        renderRow(state.window[index], into: &screen, x: x, y: top + line, layout: layout, state: state,
                  selected: index == state.selected)
    }
}

/// The empty state: a first-event recipe, or "no match" when a filter hides everything.
func renderEmpty(_ state: AppState, into screen: inout Screen, x: Int, width: Int) {
    let filtered = !state.search.query.isEmpty && state.search.kind == .filter || !state.statusFilter.isEmpty
    var lines: [(String, Style)]
    if filtered {
        lines = [
            ("No tasks match this filter.", Style(bold: true)),
            ("", .plain),
            ("Esc clears the search, 0 clears the status filter.", Style(fg: .muted)),
        ]
        if let problem = state.search.query.problems.first {
            // A malformed qualifier is why: say so (wrapped, as the line may be long).
            let wrapped = TextWidth.wrap(TextWidth.safe(problem), to: max(8, width - 4)).map { ($0, Style(fg: .error, bold: true)) }
            lines.insert(contentsOf: [("", .plain)] + wrapped, at: 1)
        }
    } else {
        let url = state.poller.queueURL ?? "$QUEUE_URL"
        lines = [
            ("No events yet.", Style(fg: .accent, bold: true)),
            ("", .plain),
            ("Publish a first event:", .plain),
            ("", .plain),
            ("  python agent-tool/publish_event.py \\", Style(fg: .success)),
            ("      --queue-url \(url) \\", Style(fg: .success)),
            ("      --title \"Hello\" --status info --agent-id me", Style(fg: .success)),
            ("", .plain),
            (state.poller.state == .disabled ? "(this view reads the database; run `timeline poll` to feed it)"
                                             : "It appears here within a second of arriving.", Style(fg: .muted)),
        ]
        if case .stopped(let problem) = state.poller.state {
            lines[lines.count - 1] = ("Polling stopped: \(TextWidth.safe(problem.summary)).", Style(fg: .error, bold: true))
            lines.append(("! shows why and the fix; R retries.", Style(fg: .muted)))
        }
    }
    let top = state.listTop + max(0, (state.listHeight - lines.count) / 2)
    let textWidth = lines.map { TextWidth.of($0.0) }.max() ?? 0
    let left = x + max(1, (width - textWidth) / 2)
    for (i, (text, style)) in lines.enumerated() where top + i < 1 + state.listHeight {
        screen.put(TextWidth.safe(text), x: left, y: top + i, style: style, limit: x + width - left)
    }
}
