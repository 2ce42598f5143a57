import TimelineCore

/// The first loads when the view opens: the newest window, then the counts.
public func startEffects(_ s: inout AppState) -> [Effect] {
    s.positionStale = true
    let effects = [Pinned.load(s), windowEffect(&s), countsEffect(s), RejectedView.load(s)].compactMap { $0 }
    awaitWindow(&s, effects)
    return effects
}

/// Applies one input to the state and returns the effects to run. No I/O happens here.
public func reduce(_ s: inout AppState, _ input: Input) -> [Effect] {
    let effects = reduceInput(&s, input)
    guardOpenPrompt(&s)
    awaitWindow(&s, effects)
    return effects
}

/// Remembers the last window load among `effects` as the one whose answer the screen waits for (answers
/// come in the order asked, so an earlier one's arrives before it, and none after it).
private func awaitWindow(_ s: inout AppState, _ effects: [Effect]) {
    for case .loadWindow(let request) in effects { s.awaitedWindow = request }
}

private func reduceInput(_ s: inout AppState, _ input: Input) -> [Effect] {
    switch input {
    case .key(let key):
        s.pendingOpen = false
        return reduceKey(&s, key)
    case .paste(let text):
        s.pendingOpen = false
        return reducePaste(&s, text)
    case .mouse(let event):
        s.pendingOpen = false
        return reduceMouse(&s, event)
    case .resize(let width, let height):
        s.width = max(1, width)
        s.height = max(1, height)
        s.selectedLine = min(s.selectedLine, s.listHeight - 1)
        DetailFold.refresh(&s)
        return [windowEffect(&s)].compactMap { $0 }
    case .tick(let now):
        s.nowMicros = now
        if s.notice != nil, s.noticeUntilMicros > 0, now >= s.noticeUntilMicros { s.notice = nil; s.noticeUntilMicros = 0 }
        return []
    case .storeChanged:
        s.positionStale = true
        // A jump still on its way (End, n/N) is asked for again, on the changed store: a reload around the
        // rows on screen would replace it and undo the key.
        let window = s.awaitedWindow.flatMap { $0.keepSelection ? nil : Effect.loadWindow($0) }
            ?? windowEffect(&s, afterStoreChange: true)
        var effects = [window, countsEffect(s)].compactMap { $0 }
        if let d = s.detail { effects.append(.loadHistory(taskID: d.taskID)) }
        if s.agentsView != nil { effects.append(.loadAgents(limit: agentsViewLimit)) }
        return effects + [RejectedView.load(s), Pinned.load(s)].compactMap { $0 }
    case .windowLoaded(let result): return applyWindow(&s, result)
    case .countsLoaded(let result): return applyCounts(&s, result)
    case .historyLoaded(let result):
        guard var d = s.detail, d.taskID == result.taskID else { return [] }
        d.history = result.events
        d.replies = result.replies
        d.row = result.row ?? d.row
        d.loaded = true
        s.detail = d
        DetailFold.refresh(&s)
        return markRead(&s, d.row)
    case .matchFound(let result): return applyMatch(&s, result)
    case .pollerStatus(let status):
        s.poller = status
        return []
    case .attention(let counts):
        s.attention = counts
        return []
    case .loadFailed(let message):
        s.lastError = message
        return []
    case .replyOutcome(let record): return applyReplyOutcome(&s, record)
    case .repliesLoaded(let records):
        for record in records { remember(&s, record) }
        return []
    case .agentsLoaded(let agents): return applyAgents(&s, agents)
    case .pinnedLoaded(let rows): return Pinned.apply(&s, rows)
    case .rejectedLoaded(let count, let newest): return RejectedView.apply(&s, count: count, newest: newest)
    case .actionFinished(let message):
        s.notice = message
        return []
    }
}

/// Installs loaded counts. A capped count that stopped early is shown ("1,000+") and the exact counts are
/// asked for next; it never replaces exact counts of the same query (a recount after a store change).
func applyCounts(_ s: inout AppState, _ result: CountsResult) -> [Effect] {
    guard result.request.generation == s.generation else { return [] }
    var exact = result.request
    exact.cap = nil
    let exactKnown = s.counts.generation == s.generation && s.counts.cap == nil
    if !result.isExact && exactKnown { return [.loadCounts(exact)] }
    s.counts.total = result.total
    s.counts.perStatus = result.perStatus
    s.counts.generation = result.request.generation
    s.counts.cap = result.isExact ? nil : result.request.cap
    s.search.matchCount = result.matchCount ?? (s.search.query.isEmpty ? nil : result.total)
    if s.mode == .browse, let n = result.newCount { s.counts.newSinceBrowse = n }
    positionFromTheEnd(&s)
    return result.isExact ? [] : [.loadCounts(exact)]
}

/// Installs a loaded window, keeping the selection on the right row and screen line.
func applyWindow(_ s: inout AppState, _ r: WindowResult) -> [Effect] {
    guard r.request.generation == s.generation, s.awaitedWindow.map({ $0 == r.request }) ?? true else { return [] }
    s.awaitedWindow = nil
    let previousTask = s.selectedRow?.taskID
    let previousKey = s.selectedRow?.key
    // A FOLLOW load that lands after the user moved away must not yank the selection: if the
    // user's row is not in it, load around that row instead.
    if r.request.anchor == .newest, r.request.keepSelection, s.mode == .browse, let task = previousTask,
       !r.rows.contains(where: { $0.taskID == task && $0.key == previousKey }) {
        return [windowEffect(&s)].compactMap { $0 }
    }
    s.window = r.rows
    s.windowStart = r.startPosition
    s.positionAccuracy = r.positionAccuracy
    s.windowReachesNewest = r.reachesNewest
    s.windowReachesOldest = r.reachesOldest
    if r.request.countsFirst { countsFromWindow(&s, r) }
    positionFromTheEnd(&s)
    s.loadedOnce = true
    s.lastError = nil
    if r.request.anchorPosition == nil { s.positionStale = false }
    switch r.request.anchor {
    case .newest:
        // A FOLLOW load that lands after the user moved away keeps the user's row (now in BROWSE).
        if s.mode == .browse && r.request.keepSelection, let task = previousTask,
           let i = r.rows.firstIndex(where: { $0.taskID == task && $0.key == previousKey }) {
            s.selected = i
        } else {
            s.selected = 0
            s.selectedLine = 0
        }
        if s.mode == .browse && s.browseBaseline == nil { s.browseBaseline = r.rows.first?.key }
    case .oldest:
        s.selected = max(0, r.rows.count - 1)
        s.selectedLine = s.listHeight - 1
    case .row:
        if r.request.keepSelection, let task = previousTask,
           let i = r.rows.firstIndex(where: { $0.taskID == task && $0.key == previousKey }) {
            s.selected = i
        } else {
            s.selected = r.anchorIndex
        }
        if let line = r.request.targetLine { s.selectedLine = line }
    }
    s.holdSelectedLine = s.mode == .browse && r.request.keepSelection
    clampSelection(&s)
    // Rows waiting for input: find out which this viewer already answered (also after a restart).
    let unknown = r.rows.filter { $0.event.status == .needsInput && s.answering.byEvent[$0.event.id] == nil }
    let replies: [Effect] = unknown.isEmpty ? [] : [.loadReplies(eventIDs: unknown.map(\.event.id))]
    if s.pendingOpen {
        s.pendingOpen = false
        return openSelectedRow(&s) + replies
    }
    if s.pendingMove != 0 {
        let rest = s.pendingMove
        s.pendingMove = 0
        if r.request.keepSelection { return moveSelection(&s, by: rest, keepLine: s.pendingMoveKeepsLine) + replies }
    }
    // Under an open prompt the detail keeps the question it answers (the prompt is cancelled instead).
    if s.splitDetail, s.answering.prompt == nil, let row = s.selectedRow, row.taskID != s.detail?.taskID {
        s.detail = DetailState(taskID: row.taskID, row: row)
        return [.loadHistory(taskID: row.taskID)] + replies
    }
    return replies
}

/// A new query's first counts, from its first screenful (`WindowRequest.countsFirst`): exact when the rows
/// reach the oldest, else lower bounds (`N+ matches`, N the rows read, per-status `n+`) until the exact
/// counts arrive. Counts of the query already shown (the exact ones came first) are kept.
func countsFromWindow(_ s: inout AppState, _ r: WindowResult) {
    guard s.counts.generation != s.generation else { return }
    var perStatus: [Status: Int] = [:]
    for row in r.rows { perStatus[row.event.status, default: 0] += 1 }
    s.counts.perStatus = perStatus
    // Rows past the last one read exist: more than those read.
    s.counts.total = r.reachesOldest ? r.rows.count : r.rows.count + 1
    s.counts.cap = r.reachesOldest ? nil : r.rows.count
    s.counts.generation = s.generation
    s.search.matchCount = s.search.query.isEmpty ? nil : s.counts.total
}

/// An estimated position of rows that reach the oldest is made exact by the list's exact total: they are
/// its last rows.
func positionFromTheEnd(_ s: inout AppState) {
    guard s.positionAccuracy != .exact, s.windowReachesOldest, s.counts.generation == s.generation,
          s.counts.cap == nil, let total = s.counts.total else { return }
    s.windowStart = max(0, total - s.window.count)
    s.positionAccuracy = .exact
}

/// Keeps `selected` inside the window and `selectedLine` consistent with the rows around it.
func clampSelection(_ s: inout AppState) {
    let h = s.listHeight
    guard !s.window.isEmpty else {
        s.selected = 0
        s.selectedLine = 0
        return
    }
    s.selected = min(max(0, s.selected), s.window.count - 1)
    var line = min(max(0, s.selectedLine), h - 1, s.selected)
    if s.windowReachesNewest { line = min(line, s.windowStart + s.selected) }
    // At the end of the list, use the space above instead of leaving blank lines below (unless new rows
    // arrived while browsing: then the selected row stays where it is on screen).
    if s.windowReachesOldest && !(s.mode == .browse && s.holdSelectedLine) {
        let rowsBelow = s.window.count - 1 - s.selected
        line = max(line, min(s.selected, h - 1 - rowsBelow))
    }
    s.selectedLine = max(0, line)
}

/// A found match (n/N, e/w): jump there in BROWSE.
func applyMatch(_ s: inout AppState, _ r: MatchResult) -> [Effect] {
    guard r.request.generation == s.generation else { return [] }
    let openDetail = s.answering.openDetailOnMatch
    s.answering.openDetailOnMatch = false
    // A late match must not move the selection or the detail under an open prompt.
    if s.answering.prompt != nil { return [] }
    guard let row = r.row else {
        if openDetail { notice(&s, "no agent is waiting for you", error: false) } else { s.search.notice = "no match" }
        return []
    }
    if openDetail {
        s.detail = DetailState(taskID: row.taskID, row: row)
        let jump = applyMatchSelection(&s, r, row)
        return jump + [.loadHistory(taskID: row.taskID)]
    }
    return applyMatchSelection(&s, r, row)
}

/// Moves the selection to a found row (loading a window around it when it is not in the current one).
private func applyMatchSelection(_ s: inout AppState, _ r: MatchResult, _ row: TimelineRow) -> [Effect] {
    s.search.notice = r.wrapped ? "search wrapped" : nil
    enterBrowse(&s)
    if let i = s.window.firstIndex(where: { $0.taskID == row.taskID && $0.key == row.key }) {
        return moveSelection(&s, by: i - s.selected, keepLine: false)
    }
    let line = min(s.listHeight / 3, max(0, s.listHeight - 1))
    let req = WindowRequest(generation: s.generation, query: s.listQuery,
                            anchor: .row(taskID: row.taskID, key: row.key),
                            above: line + margin(s), below: s.listHeight - line + margin(s),
                            anchorPosition: nil, keepSelection: false, targetLine: line)
    return [.loadWindow(req)]
}
