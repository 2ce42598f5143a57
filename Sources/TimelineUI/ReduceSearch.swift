import TimelineCore

/// Keys while the `/` prompt is open: editing is incremental (each key re-runs the search).
func reducePromptKey(_ s: inout AppState, _ key: Key) -> [Effect] {
    switch key {
    case .enter:
        s.search.promptOpen = false
        s.search.recalled = nil
        return SearchHistory.keep(&s)
    case .escape:
        s.search.promptOpen = false
        s.search.recalled = nil
        guard !s.search.text.isEmpty else { return [] }
        s.search.text = ""
        return searchChanged(&s)
    case .backspace:
        guard !s.search.text.isEmpty else { return [] }
        s.search.text.removeLast()
        return searchChanged(&s)
    case .ctrl("u"):
        s.search.text = ""
        return searchChanged(&s)
    case .ctrl("w"):
        var t = s.search.text
        while t.last == " " { t.removeLast() }
        while let c = t.last, c != " " { _ = c; t.removeLast() }
        s.search.text = t
        return searchChanged(&s)
    case .tab, .backTab:
        s.search.kind = s.search.kind == .filter ? .highlight : .filter
        return searchChanged(&s)
    case .up: return SearchHistory.recall(&s, older: true)
    case .down: return SearchHistory.recall(&s, older: false)
    case .char(let c):
        guard s.search.text.count < 200 else { return [] }
        s.search.recalled = nil
        s.search.text.append(c)
        return searchChanged(&s)
    default:
        return []
    }
}

/// The search text or its kind changed: re-parse and reload.
func searchChanged(_ s: inout AppState) -> [Effect] {
    let parsed = TimelineQuery.parse(s.search.text)
    s.search.query = parsed
    s.search.matchCount = nil
    s.search.notice = nil
    let leftView = leaveViewIfEdited(&s)
    if s.search.kind == .filter { return listQueryChanged(&s) + leftView }
    // Highlight: the list keeps every task; stay put if the selection matches, else find one.
    s.generation += 1
    var effects = [windowEffect(&s), countsEffect(s)].compactMap { $0 }
    if let q = s.matchQuery, let row = s.selectedRow, !QueryMatcher.matches(row, q, nowMicros: s.nowMicros, marks: s.marks),
       let find = findEffect(s, query: q, olderFirst: true) {
        effects.append(find)
    }
    return effects + leftView
}

/// The listed rows changed (filter text or status toggles): start again at the newest match.
func listQueryChanged(_ s: inout AppState) -> [Effect] {
    s.generation += 1
    s.pendingMove = 0
    s.positionStale = true
    if s.mode == .browse { s.browseBaseline = nil; s.counts.newSinceBrowse = 0 }
    // The first screenful gives the first counts when the header counts the listed rows (no status filter,
    // no highlight); the exact counts follow on the count lane.
    let fromWindow = s.matchQuery == nil && s.listQuery == s.statusCountQuery
    var window = windowEffect(&s, from: .newest)
    if fromWindow, case .loadWindow(var request)? = window {
        request.countsFirst = true
        window = .loadWindow(request)
    }
    return [window, countsEffect(s, exact: fromWindow)].compactMap { $0 }
}
