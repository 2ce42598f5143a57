import TimelineCore

/// Routes a key to the help overlay, the search prompt, the full-screen detail or the list.
func reduceKey(_ s: inout AppState, _ key: Key) -> [Effect] {
    if key == .ctrl("c") {
        s.quitRequested = true
        return [.quit]
    }
    if s.helpOpen { return reduceHelpKey(&s, key) }
    if s.pollerMessageOpen {
        s.pollerMessageOpen = false
        return []
    }
    if s.rejected.open { return RejectedView.reduceKey(&s, key) }
    if s.answering.prompt != nil { return reduceAnswerKey(&s, key) }
    s.answering.notice = nil
    if s.search.promptOpen { return reducePromptKey(&s, key) }
    if s.commandLine != nil { return reduceCommandKey(&s, key) }
    if s.viewPicker != nil { return reducePickerKey(&s, key) }
    s.notice = nil
    if s.agentsView != nil { return reduceAgentsKey(&s, key) }
    if s.detail != nil && !s.splitDetail { return reduceDetailKey(&s, key) }
    return reduceListKey(&s, key)
}

/// Opens the selected row's detail (nothing when none is selected or it is open already).
func openSelectedRow(_ s: inout AppState) -> [Effect] {
    guard let row = s.selectedRow, s.detail?.taskID != row.taskID else { return [] }
    s.detail = DetailState(taskID: row.taskID, row: row)
    return [.loadHistory(taskID: row.taskID)]
}

/// Keys of the timeline list (also in split view, where J/K scroll the detail pane).
func reduceListKey(_ s: inout AppState, _ key: Key) -> [Effect] {
    let page = max(1, s.listHeight)
    s.search.notice = nil
    switch key {
    case .char("j"), .down, .ctrl("n"): return moveSelection(&s, by: 1, keepLine: false)
    case .char("k"), .up, .ctrl("p"): return moveSelection(&s, by: -1, keepLine: false)
    // Space as in a newsreader: "seen it, go on": the selected task is marked read (when unread) and the
    // list pages down, whether or not anything was unread.
    case .char(" "): return markRead(&s, s.selectedRow) + moveSelection(&s, by: page, keepLine: true)
    case .pageDown, .ctrl("f"): return moveSelection(&s, by: page, keepLine: true)
    case .pageUp, .char("b"), .ctrl("b"): return moveSelection(&s, by: -page, keepLine: true)
    case .char("U"): return markAllRead(&s)
    case .ctrl("d"): return moveSelection(&s, by: max(1, page / 2), keepLine: true)
    case .ctrl("u"): return moveSelection(&s, by: -max(1, page / 2), keepLine: true)
    // As in less: g the top (the newest task: FOLLOW), G the bottom (the oldest), F follow.
    case .home, .char("f"), .char("F"), .char("g"): return follow(&s)
    case .char("G"), .end: return jumpToOldest(&s)
    case .enter, .right, .char("l"):
        if s.listIsBeingReplaced {
            s.pendingOpen = true  // opened once the rows arrive (`applyWindow`)
            return []
        }
        return openSelectedRow(&s)
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
    case .char("e"), .char("E"):
        return [findEffect(s, query: queryForStatus(s, .error), olderFirst: key == .char("e"))].compactMap { $0 }
    case .char("w"), .char("W"):
        return [findEffect(s, query: queryForStatus(s, .warning), olderFirst: key == .char("w"))].compactMap { $0 }
    case .char(let c) where ("1"..."6").contains(c) && s.splitDetail && answerableEvent(s) != nil:
        return pickAction(&s, digit: c) ?? []
    case .char("i"): return jumpToWaiting(&s)
    case .char("A"): return openAgentsView(&s)
    case .char("r") where s.detail != nil: return openTextReply(&s)
    case .char("R") where s.detail != nil: return offerResend(&s)
    case .char(let c) where ("1"..."6").contains(c):
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
    case .char("M"): return toggleMouse(&s)
    case .char("P"): return Pinned.toggle(&s)
    case .char("m"): return toggleMark(&s)
    case .char("'"): return jumpToNextMark(&s)
    case .char("x"): return exportSelected(&s)
    case .char("v"): return openViewPicker(&s)
    case .char(":"):
        s.commandLine = ""
        return []
    case .char("?"), .function(1):
        return openHelp(&s)
    case .char("!"):
        s.pollerMessageOpen = true
        return []
    case .char(RejectedView.key): return RejectedView.open(&s)
    case .char("R"):
        guard case .stopped = s.poller.state else { return [] }
        s.showNotice("restarting the poller…")
        return [.restartPoller]
    case .char("q"):
        if s.detail != nil { s.detail = nil; return [] }
        s.quitRequested = true
        return [.quit]
    case .function(10):
        s.quitRequested = true
        return [.quit]
    default:
        return []
    }
}

/// Keys of the full-screen detail view.
func reduceDetailKey(_ s: inout AppState, _ key: Key) -> [Effect] {
    let page = max(1, s.height - 3)
    switch key {
    case .char("j"), .down, .ctrl("n"), .char("J"): return scrollDetail(&s, by: 1)
    case .char("k"), .up, .ctrl("p"), .char("K"): return scrollDetail(&s, by: -1)
    case .pageDown, .char(" "), .ctrl("f"): return scrollDetail(&s, by: page)
    case .pageUp, .char("b"), .ctrl("b"): return scrollDetail(&s, by: -page)
    case .ctrl("d"): return scrollDetail(&s, by: page / 2)
    case .ctrl("u"): return scrollDetail(&s, by: -page / 2)
    case .home, .char("g"): return scrollDetail(&s, by: Int.min / 2)
    case .char("G"), .end: return scrollDetail(&s, by: Int.max / 2)
    case .tab:
        return focusNextAction(&s) ?? []
    case .enter:
        // Enter picks the button Tab moved to; without one it closes the detail, as Esc does.
        if let effects = pickFocusedAction(&s) { return effects }
        s.detail = nil
        return []
    case .char("z"): return DetailFold.toggle(&s)
    case .escape, .char("q"), .left, .char("h"):
        s.detail = nil
        return []
    case .function(10):
        s.quitRequested = true
        return [.quit]
    case .char("x"): return exportSelected(&s)
    case .char("t"):
        s.absoluteTime.toggle()
        return []
    case .char("M"): return toggleMouse(&s)
    case .char("?"), .function(1):
        return openHelp(&s)
    case .char("!"):
        s.pollerMessageOpen = true
        return []
    case .char(RejectedView.key): return RejectedView.open(&s)
    case .char("i"): return jumpToWaiting(&s)
    case .char("r"): return openTextReply(&s)
    case .char("R"): return offerResend(&s)
    case .char(let c) where ("1"..."6").contains(c): return pickAction(&s, digit: c) ?? []
    default:
        return []
    }
}

/// `M`: the view takes the mouse, or leaves it to the terminal (to select text); the status bar says which.
func toggleMouse(_ s: inout AppState) -> [Effect] {
    s.mouse.toggle()
    s.showNotice(s.mouse ? "mouse on: wheel scrolls, click selects (M: off)" : "mouse off: the terminal selects text (M: on)")
    return []
}

func openHelp(_ s: inout AppState) -> [Effect] {
    s.helpOpen = true
    s.helpScroll = 0
    return []
}

/// While the help overlay is open: movement keys scroll it (when it does not fit), any other key closes it.
func reduceHelpKey(_ s: inout AppState, _ key: Key) -> [Effect] {
    let hidden = HelpLayout.hiddenLines(s)
    let step: Int? = switch key {
    case .char("j"), .down, .ctrl("n"): 1
    case .char("k"), .up, .ctrl("p"): -1
    case .pageDown, .char(" "), .ctrl("f"), .ctrl("d"): HelpLayout.visibleLines(s)
    case .pageUp, .char("b"), .ctrl("b"), .ctrl("u"): -HelpLayout.visibleLines(s)
    default: nil
    }
    guard hidden > 0, let step else {
        s.helpOpen = false
        return []
    }
    s.helpScroll = min(max(0, s.helpScroll + step), hidden)
    return []
}

/// Scrolls the detail body, clamped to its content.
func scrollDetail(_ s: inout AppState, by delta: Int) -> [Effect] {
    guard var d = s.detail else { return [] }
    let total = DetailLayout.lines(s, width: DetailLayout.contentWidth(s)).count
    let visible = DetailLayout.visibleLines(s, total: total)
    let maxScroll = max(0, total - visible)
    d.scroll = min(max(0, d.scroll &+ delta), maxScroll)
    s.detail = d
    return []
}
