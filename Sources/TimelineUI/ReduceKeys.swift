import TimelineCore

/// Routes a key to the help overlay, the search prompt, the full-screen detail or the list.
func reduceKey(_ s: inout AppState, _ key: Key) -> [Effect] {
    if key == .ctrl("c") {
        s.quitRequested = true
        return [.quit]
    }
    let wasPendingG = s.pendingG
    s.pendingG = false
    if s.helpOpen {
        s.helpOpen = false
        return []
    }
    if s.search.promptOpen { return reducePromptKey(&s, key) }
    if s.commandLine != nil { return reduceCommandKey(&s, key) }
    if s.viewPicker != nil { return reducePickerKey(&s, key) }
    s.notice = nil
    if s.detail != nil && !s.splitDetail { return reduceDetailKey(&s, key, pendingG: wasPendingG) }
    return reduceListKey(&s, key, pendingG: wasPendingG)
}

/// Keys of the timeline list (also in split view, where J/K scroll the detail pane).
func reduceListKey(_ s: inout AppState, _ key: Key, pendingG: Bool) -> [Effect] {
    let page = max(1, s.listHeight)
    s.search.notice = nil
    switch key {
    case .char("j"), .down: return moveSelection(&s, by: 1, keepLine: false)
    case .char("k"), .up: return moveSelection(&s, by: -1, keepLine: false)
    case .pageDown, .char(" "): return moveSelection(&s, by: page, keepLine: true)
    case .pageUp: return moveSelection(&s, by: -page, keepLine: true)
    case .ctrl("d"): return moveSelection(&s, by: max(1, page / 2), keepLine: true)
    case .ctrl("u"): return moveSelection(&s, by: -max(1, page / 2), keepLine: true)
    case .char("g"):
        if pendingG { return follow(&s) }
        s.pendingG = true
        return []
    case .home, .char("f"): return follow(&s)
    case .char("G"), .end: return jumpToOldest(&s)
    case .enter, .right, .char("l"):
        guard let row = s.selectedRow else { return [] }
        if s.detail?.taskID == row.taskID { return [] }
        s.detail = DetailState(taskID: row.taskID, row: row)
        return [.loadHistory(taskID: row.taskID)]
    case .escape, .left, .char("h"):
        if s.detail != nil { s.detail = nil; return [] }
        if key == .escape && !s.search.text.isEmpty {
            s.search.text = ""
            return searchChanged(&s)
        }
        return []
    case .char("J"): return scrollDetail(&s, by: 1)
    case .char("K"): return scrollDetail(&s, by: -1)
    case .char("z"): return DetailFold.toggle(&s)
    case .char("/"):
        s.search.promptOpen = true
        return []
    case .tab:
        guard !s.search.text.isEmpty else { return [] }
        s.search.kind = s.search.kind == .filter ? .highlight : .filter
        return searchChanged(&s)
    case .char("n"), .char("N"):
        let older = key == .char("n")
        if let q = s.matchQuery { return [findEffect(s, query: q, olderFirst: older)].compactMap { $0 } }
        return moveSelection(&s, by: older ? 1 : -1, keepLine: false)
    case .char("e"): return [findEffect(s, query: queryForStatus(s, .error), olderFirst: true)].compactMap { $0 }
    case .char("w"): return [findEffect(s, query: queryForStatus(s, .warning), olderFirst: true)].compactMap { $0 }
    case .char(let c) where ("1"..."5").contains(c):
        let status = Status.allCases[Int(String(c))! - 1]
        if s.statusFilter.contains(status) { s.statusFilter.remove(status) } else { s.statusFilter.insert(status) }
        return listQueryChanged(&s)
    case .char("0"):
        guard !s.statusFilter.isEmpty else { return [] }
        s.statusFilter = []
        return listQueryChanged(&s)
    case .char("t"):
        s.absoluteTime.toggle()
        return []
    case .char("m"): return toggleMark(&s)
    case .char("'"): return jumpToNextMark(&s)
    case .char("x"): return exportSelected(&s)
    case .char("v"): return openViewPicker(&s)
    case .char(":"):
        s.commandLine = ""
        return []
    case .char("?"):
        s.helpOpen = true
        return []
    case .char("q"):
        if s.detail != nil { s.detail = nil; return [] }
        s.quitRequested = true
        return [.quit]
    default:
        return []
    }
}

/// Keys of the full-screen detail view.
func reduceDetailKey(_ s: inout AppState, _ key: Key, pendingG: Bool) -> [Effect] {
    let page = max(1, s.height - 3)
    switch key {
    case .char("j"), .down: return scrollDetail(&s, by: 1)
    case .char("k"), .up: return scrollDetail(&s, by: -1)
    case .pageDown, .char(" "): return scrollDetail(&s, by: page)
    case .pageUp: return scrollDetail(&s, by: -page)
    case .ctrl("d"): return scrollDetail(&s, by: page / 2)
    case .ctrl("u"): return scrollDetail(&s, by: -page / 2)
    case .home: return scrollDetail(&s, by: Int.min / 2)
    case .char("g"):
        if pendingG { return scrollDetail(&s, by: Int.min / 2) }
        s.pendingG = true
        return []
    case .char("G"), .end: return scrollDetail(&s, by: Int.max / 2)
    case .char("z"): return DetailFold.toggle(&s)
    case .escape, .enter, .char("q"), .left, .char("h"):
        s.detail = nil
        return []
    case .char("x"): return exportSelected(&s)
    case .char("t"):
        s.absoluteTime.toggle()
        return []
    case .char("?"):
        s.helpOpen = true
        return []
    default:
        return []
    }
}

/// Scrolls the detail body, clamped to its content.
func scrollDetail(_ s: inout AppState, by delta: Int) -> [Effect] {
    guard var d = s.detail else { return [] }
    let visible = DetailLayout.visibleLines(s)
    let total = DetailLayout.lines(s, width: DetailLayout.contentWidth(s)).count
    let maxScroll = max(0, total - visible)
    d.scroll = min(max(0, d.scroll &+ delta), maxScroll)
    s.detail = d
    return []
}
