import TimelineCore

/// Rows fetched beyond the visible ones on each side.
func margin(_ s: AppState) -> Int { s.listHeight * Layout.marginPages + 2 }

/// The window load the current state needs (nil when nothing can match). `afterStoreChange`: a reload of the
/// newest rows after a commit reads one screenful, as a new search does (a busy fleet reloads ~30 times a
/// second, and the margin is read when the first key moves away from the newest rows).
func windowEffect(_ s: inout AppState, from start: WindowAnchor? = nil, afterStoreChange: Bool = false) -> Effect? {
    if s.listMatchesNothing {
        s.window = []
        s.windowStart = 0
        s.positionAccuracy = .exact
        s.windowReachesNewest = true
        s.windowReachesOldest = true
        s.loadedOnce = true
        clampSelection(&s)
        return nil
    }
    let anchor: WindowAnchor
    if let start {
        anchor = start
    } else if s.mode == .follow || s.selectedRow == nil {
        anchor = .newest
    } else {
        let row = s.window[s.selected]
        anchor = .row(taskID: row.taskID, key: row.key)
    }
    // Around a row, one more page on each side than a page move needs: `moveSelection` refills when
    // fewer than a page is left, so a j/k walk refills about once a page instead of every few steps.
    let slack = s.listHeight
    let above = anchor == .newest ? 0 : s.selectedLine + margin(s) + slack
    // A new search (explicit `.newest` start) and a reload after a store change fetch one screenful: the
    // frame needs no more, and the margin follows on the first move.
    let newestRows = start == .newest || afterStoreChange ? s.listHeight + 1 : s.listHeight + margin(s)
    let below = anchor == .newest ? newestRows : s.listHeight - s.selectedLine + margin(s) + slack
    var req = WindowRequest(generation: s.generation, query: s.listQuery, anchor: anchor, above: above,
                            below: below, anchorPosition: s.positionStale ? nil : s.selectedPosition,
                            keepSelection: start == nil, targetLine: nil)
    req.anchorAccuracy = s.positionAccuracy
    // After a store change the old position is the estimate when recounting it would read too many rows.
    if s.positionStale, case .row = anchor { req.formerPosition = s.selectedPosition }
    return .loadWindow(req)
}

/// Header/status counts for the current state: capped for a new query (they settle fast; the exact counts
/// follow when there are more), exact for a recount of a query whose exact counts are shown, and when
/// `exact` (the query's first window gives its first counts).
func countsEffect(_ s: AppState, exact: Bool = false) -> Effect? {
    if s.listMatchesNothing { return nil }
    let exactShown = s.counts.generation == s.generation && s.counts.cap == nil
    let req = CountsRequest(generation: s.generation, listQuery: s.listQuery, statusQuery: s.statusCountQuery,
                            matchQuery: s.matchQuery, newerThan: s.mode == .browse ? s.browseBaseline : nil,
                            cap: exactShown || exact ? nil : CountsRequest.firstCap)
    return .loadCounts(req)
}

/// Switches to BROWSE, remembering the newest row for `↑ N new`.
func enterBrowse(_ s: inout AppState) {
    guard s.mode == .follow else { return }
    s.mode = .browse
    s.browseBaseline = s.windowStart == 0 ? s.window.first?.key : nil
    s.counts.newSinceBrowse = 0
}

/// Back to FOLLOW: newest task on top, selection on it. When the loaded rows do not reach the newest (Home
/// from far down), the screen keeps them until the newest rows arrive: their top is not row 1, and a frame
/// that drew it as such would show rows that are neither where the user was nor where they asked to go.
func follow(_ s: inout AppState) -> [Effect] {
    s.mode = .follow
    s.pendingMove = 0
    s.browseBaseline = nil
    s.counts.newSinceBrowse = 0
    if s.windowReachesNewest {
        s.selected = 0
        s.selectedLine = 0
    }
    s.positionStale = true
    return [windowEffect(&s), countsEffect(s)].compactMap { $0 } + detailFollowsSelection(&s)
}

/// Moves the selection; small moves move the cursor line, page moves keep it and scroll the view.
func moveSelection(_ s: inout AppState, by delta: Int, keepLine: Bool) -> [Effect] {
    guard !s.window.isEmpty, delta != 0 else { return [] }
    let target = min(max(0, s.selected + delta), s.window.count - 1)
    let moved = target - s.selected
    // Past the loaded rows with more in the store: the rest waits for the window load below.
    let beyond = delta - moved
    if beyond > 0 && !s.windowReachesOldest || beyond < 0 && !s.windowReachesNewest {
        s.pendingMove += beyond
        s.pendingMoveKeepsLine = keepLine
    }
    var effects: [Effect] = []
    if moved != 0 {
        enterBrowse(&s)
        s.holdSelectedLine = false
        s.selected = target
        if keepLine {
            if target == 0 && s.windowReachesNewest { s.selectedLine = 0 }
        } else {
            s.selectedLine += moved
        }
        clampSelection(&s)
        effects += detailFollowsSelection(&s)
        // Back on the newest row: FOLLOW again, by itself.
        if moved < 0 && s.selected == 0 && s.windowReachesNewest && s.mode == .browse {
            s.showNotice("back at the newest: FOLLOW")
            return follow(&s)
        }
    }
    let rowsBelow = s.window.count - 1 - s.selected
    let nearEnd = !s.windowReachesOldest && rowsBelow < s.listHeight + 1
    let nearStart = !s.windowReachesNewest && s.selected < s.listHeight + 1
    if nearEnd || nearStart, let e = windowEffect(&s) { effects.insert(e, at: 0) }
    return effects
}

/// G / End: the oldest rows.
func jumpToOldest(_ s: inout AppState) -> [Effect] {
    if s.listMatchesNothing { return [] }
    enterBrowse(&s)
    s.pendingMove = 0
    if s.windowReachesOldest && !s.window.isEmpty {
        return moveSelection(&s, by: s.window.count - 1 - s.selected, keepLine: false)
    }
    let exactTotal = s.counts.generation == s.generation && s.counts.cap == nil ? s.counts.total : nil
    let req = WindowRequest(generation: s.generation, query: s.listQuery, anchor: .oldest, above: 0,
                            below: s.listHeight + margin(s), anchorPosition: nil, keepSelection: false,
                            targetLine: nil, listTotal: exactTotal)
    return [.loadWindow(req)]
}

/// In split view the detail pane shows whatever is selected.
func detailFollowsSelection(_ s: inout AppState) -> [Effect] {
    guard s.splitDetail, s.answering.prompt == nil, let row = s.selectedRow, row.taskID != s.detail?.taskID else { return [] }
    s.detail = DetailState(taskID: row.taskID, row: row)
    return [.loadHistory(taskID: row.taskID)]
}

/// Next row matching `query` below (or above) the selection, wrapping around.
func findEffect(_ s: AppState, query: TimelineQuery, olderFirst: Bool) -> Effect? {
    guard let row = s.selectedRow else { return nil }
    return .findMatch(MatchRequest(generation: s.generation, query: query, from: row.key,
                                   olderFirst: olderFirst, wrap: true))
}

/// The list query narrowed to one status (e/w).
func queryForStatus(_ s: AppState, _ status: Status) -> TimelineQuery {
    var q = s.listQuery
    q.statuses = [status]
    return q
}

/// A click or wheel on the list area.
func reduceMouse(_ s: inout AppState, _ event: MouseEvent) -> [Effect] {
    if s.helpOpen { s.helpOpen = false; return [] }
    switch event {
    case .wheelUp(let x, _):
        if let d = s.detail, !s.splitDetail || x >= Layout.listWidth(width: s.width, split: true) {
            _ = d
            return scrollDetail(&s, by: -3)
        }
        return moveSelection(&s, by: -3, keepLine: false)
    case .wheelDown(let x, _):
        if s.detail != nil, !s.splitDetail || x >= Layout.listWidth(width: s.width, split: true) {
            return scrollDetail(&s, by: 3)
        }
        return moveSelection(&s, by: 3, keepLine: false)
    case .click(let x, let y):
        guard s.detail == nil || s.splitDetail else { return [] }
        guard x < Layout.listWidth(width: s.width, split: s.splitDetail) else { return [] }
        let line = y - s.listTop
        guard line >= 0, line < s.listHeight, !s.window.isEmpty else { return [] }
        let top = s.selected - s.selectedLine
        let index = top + line
        guard index < s.window.count, index != s.selected else { return [] }
        return moveSelection(&s, by: index - s.selected, keepLine: false)
    }
}
