import TimelineCore

/// Tasks pinned with `P`: drawn first, above the list (in the order they were pinned, newest pin first), up
/// to a third of the list area, then a rule; kept in the database across restarts.
enum Pinned {
    /// `P`: pins the selected task, or unpins it.
    static func toggle(_ s: inout AppState) -> [Effect] {
        guard let row = s.selectedRow else { return [] }
        if s.pins.contains(row.taskID) {
            s.pins.removeAll { $0 == row.taskID }
            s.pinnedRows.removeAll { $0.taskID == row.taskID }
            s.showNotice("unpinned \(TextWidth.safe(row.taskID))")
        } else {
            s.pins.insert(row.taskID, at: 0)
            s.pinnedRows.insert(row, at: 0)
            s.showNotice("pinned \(TextWidth.safe(row.taskID)) to the top (P again unpins)")
        }
        clampSelection(&s)
        return [.setPins(s.pins)] + [windowEffect(&s)].compactMap { $0 }
    }

    /// Reads the pinned tasks' current rows (start, store changes).
    static func load(_ s: AppState) -> Effect? { s.pins.isEmpty ? nil : .loadPinned(taskIDs: s.pins) }

    static func apply(_ s: inout AppState, _ rows: [TimelineRow]) -> [Effect] {
        let byTask = Dictionary(rows.map { ($0.taskID, $0) }, uniquingKeysWith: { a, _ in a })
        s.pinnedRows = s.pins.compactMap { byTask[$0] }
        clampSelection(&s)
        return []
    }

    /// Rows drawn for the pins (a third of the list area at most).
    static func rows(_ s: AppState) -> Int {
        min(s.pinnedRows.count, max(0, (Layout.listHeight(height: s.height) - 1) / 3))
    }

    /// Lines the pins take above the list: their rows and a rule (0 without pins).
    static func lines(_ s: AppState) -> Int {
        let n = rows(s)
        return n == 0 ? 0 : n + 1
    }
}

/// Draws the pinned rows and the rule under them at the top of the list area.
func renderPinned(_ state: AppState, into screen: inout Screen, x: Int, width: Int, layout: RowLayout) {
    let n = Pinned.rows(state)
    guard n > 0 else { return }
    for (i, row) in state.pinnedRows.prefix(n).enumerated() {
        renderRow(row, into: &screen, x: x, y: 1 + i, layout: layout, state: state, selected: false)
    }
    let hidden = state.pinnedRows.count - n
    let label = hidden > 0 ? " pinned · \(hidden) more · P unpins " : " pinned · P unpins "
    let rule = String(repeating: "─", count: 2) + label + String(repeating: "─", count: max(0, width - TextWidth.of(label) - 2))
    screen.put(rule, x: x, y: 1 + n, style: Style(fg: .muted), limit: width)
}
