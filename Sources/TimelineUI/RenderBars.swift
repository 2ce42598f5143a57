import TimelineCore

/// Line 0: app name, queue, per-status counts (toggled statuses marked), attention, rejected messages, and
/// the active search. The search's marker always shows (its room is kept first, at least its label and a
/// few characters): the rest gives way, the app name first on narrow terminals.
func renderHeader(_ state: AppState, into screen: inout Screen) {
    let bar = Style(bg: .headerBar)
    screen.fill(y: 0, width: screen.width, style: bar)
    let marker = SearchMarker(state)
    let limit = screen.width - (marker?.room(screenWidth: screen.width) ?? 0)
    var x = 1
    func fits(_ text: String) -> Bool { x + TextWidth.of(text) < limit }
    if marker == nil || fits("timeline" + "  ● 0") {
        x += screen.put("timeline", x: x, y: 0, style: Style(fg: .accent, bg: .headerBar, bold: true)) + 1
        if let queue = state.poller.queueName, fits(" " + TextWidth.truncate(TextWidth.safe(queue), to: 24) + "  ● 0") {
            x += screen.put(TextWidth.truncate(TextWidth.safe(queue), to: 24), x: x, y: 0, style: bar) + 1
        }
        x += 1
    }
    var waitingShown = false
    for status in Status.allCases {
        let picked = state.statusFilter.isEmpty || state.statusFilter.contains(status)
        let count = state.counts.perStatus[status] ?? 0
        let n = CountText.perStatus(count, state.counts)
        // "N need you" shows only while agents wait, and always with its words: it asks for attention.
        if status == .needsInput && count == 0 && !state.statusFilter.contains(status) { continue }
        let text = status == .needsInput ? WaitingText.header(n)
            : screen.width >= 100 ? "\(StatusGlyph.glyph(status)) \(n) \(StatusGlyph.label(status))"
            : "\(StatusGlyph.glyph(status)) \(n)"
        let style = Style(fg: picked ? status.colorRole : .muted, bg: .headerBar, bold: picked,
                          dim: !picked, underline: !state.statusFilter.isEmpty && picked)
        guard fits(text) else { break }
        x += screen.put(text, x: x, y: 0, style: style) + 2
        if status == .needsInput { waitingShown = true }
    }
    x = renderAttention(state, into: &screen, x: x, limit: limit, waitingShown: waitingShown)
    if let rejected = state.rejected.count, rejected > 0 {
        let text = "\(Thousands.format(rejected)) rejected (\(RejectedView.key))"
        if fits(text) { x += screen.put(text, x: x, y: 0, style: Style(fg: .warning, bg: .headerBar)) + 2 }
    }
    marker?.draw(into: &screen, x: x)
}

/// The header's mark of an active search: `[view] filter: text` (or `highlight:`), cut at the end when long.
struct SearchMarker {
    let view: String?
    let label: String
    let text: String

    init?(_ state: AppState) {
        guard !state.search.text.isEmpty else { return nil }
        view = state.activeView.map { "[\(TextWidth.safe($0))] " }
        label = state.search.kind == .filter ? "filter: " : "highlight: "
        text = TextWidth.safe(state.search.text)
    }

    /// Columns kept for the marker at the header's end: all of it when it fits in half the line (the whole
    /// line under 40 columns, where it is what matters most), else half the line, and never less than its
    /// label and four characters of the query.
    func room(screenWidth: Int) -> Int {
        let whole = TextWidth.of((view ?? "") + label + text) + 1
        let least = TextWidth.of(label) + min(4, TextWidth.of(text)) + 2
        return min(screenWidth, max(least, min(whole, screenWidth < 40 ? screenWidth : screenWidth / 2)))
    }

    func draw(into screen: inout Screen, x start: Int) {
        let style = Style(fg: .highlight, bg: .headerBar, bold: true)
        var x = max(1, start)
        let least = TextWidth.of(label) + min(4, TextWidth.of(text))
        if let view, x + TextWidth.of(view) + least < screen.width {
            x += screen.put(view, x: x, y: 0, style: Style(fg: .accent, bg: .headerBar, bold: true))
        }
        if x + TextWidth.of(label) >= screen.width { x = max(0, screen.width - TextWidth.of(label) - 1) }
        screen.put(TextWidth.truncate(label + text, to: max(0, screen.width - x - 1)), x: x, y: 0, style: style)
    }
}

/// The last line: mode, `↑ N new`, poller state, hints and position, or the search prompt.
func renderStatusBar(_ state: AppState, into screen: inout Screen) {
    let y = screen.height - 1
    guard y > 0 else { return }
    let bar = Style(bg: .statusBar)
    screen.fill(y: y, width: screen.width, style: bar)
    if state.search.promptOpen { return renderPrompt(state, into: &screen, y: y) }
    if state.answering.prompt != nil { return renderAnswerPrompt(state, into: &screen, y: y) }
    if let line = state.commandLine { return renderCommandLine(line, into: &screen, y: y) }
    if let notice = state.answering.notice, state.answering.noticeIsError {
        // Why a reply was refused or not sent takes the whole bar (until the next key): it must be read.
        screen.put(TextWidth.truncate(" " + notice, to: screen.width), x: 0, y: y,
                   style: Style(fg: .error, bg: .statusBar, bold: true))
        return
    }

    var left: [(String, Style)] = []
    let modeStyle = Style(fg: state.mode == .follow ? .success : .warning, bg: .statusBar, bold: true, reverse: true)
    left.append((" \(state.mode.rawValue) ", modeStyle))
    if state.mode == .browse {
        // Only new rows above the screen's top line count: those already on screen are no news.
        let hiddenNew = min(state.counts.newSinceBrowse, max(0, state.selectedPosition - state.selectedLine))
        if hiddenNew > 0 {
            // The count stops one row past the cap.
            let n = hiddenNew > CountsRequest.firstCap ? Thousands.format(CountsRequest.firstCap) + "+" : "\(hiddenNew)"
            left.append((" ↑ \(n) new ", Style(fg: .warning, bg: .statusBar, bold: true)))
        }
        left.append((" f: follow ", Style(fg: .accent, bg: .statusBar)))
    }
    if let notice = state.answering.notice {
        // What just happened to a reply comes first: it answers the key the user just pressed.
        left.append((" " + notice + " ", Style(fg: state.answering.noticeIsError ? .error : .needsInput, bg: .statusBar, bold: true)))
    }
    if let error = state.lastError {
        left.append((" " + TextWidth.safe(error), Style(fg: .error, bg: .statusBar, bold: true)))
    } else if let notice = state.notice {
        // A notice ("back at the newest", an export's path, a saved view) takes the poller's place until it
        // expires or the next key.
        left.append((" " + TextWidth.safe(notice), Style(fg: .highlight, bg: .statusBar, bold: true)))
    } else {
        left.append((" " + PollerText.describe(state.poller, nowMicros: state.nowMicros), PollerText.style(state.poller)))
    }
    if state.poller.receivedManyTimes > 0 {
        let n = state.poller.receivedManyTimes
        left.append((" ⚠ \(n) message\(n == 1 ? "" : "s") received \(QueueDelivery.flaggedReceiveCount)+ times (see doctor) ",
                     Style(fg: .warning, bg: .statusBar, bold: true)))
    }
    if let notice = state.search.notice { left.append(("  " + notice, Style(fg: .highlight, bg: .statusBar))) }

    // Right: position and `? help` always; more hints only when they fit.
    // The mode and `? help` always show; the position only when it fits beside them (tiny terminals).
    let position = positionText(state)
    var essential = (position.isEmpty ? "" : position + "  ") + "? help "
    if TextWidth.of(left[0].0) + TextWidth.of(essential) + 1 > screen.width { essential = "? help " }
    let extra = state.detail != nil && !state.splitDetail ? "j/k scroll  Esc back  " : "/ search  ⏎ detail  q quit  "
    let leftWidth = left.reduce(0) { $0 + TextWidth.of($1.0) }
    let right = leftWidth + TextWidth.of(extra + essential) + 2 <= screen.width ? extra + essential : essential
    let rightWidth = TextWidth.of(right)
    var x = 0
    for (text, style) in left {
        let room = screen.width - rightWidth - 1 - x
        guard room > 1 else { break }
        x += screen.put(TextWidth.truncate(text, to: room), x: x, y: y, style: style, limit: room)
    }
    if rightWidth < screen.width {
        screen.put(right, x: screen.width - rightWidth, y: y, style: Style(fg: .muted, bg: .statusBar))
    }
}

/// `row N of M`, or counts while nothing is selected. An estimated position (`PositionAccuracy`) reads
/// `row ~N` (approximate) or `row N+` (at least).
func positionText(_ state: AppState) -> String {
    guard state.selectedRow != nil else {
        return state.counts.total.map { "\(CountText.total($0, state.counts)) tasks" } ?? ""
    }
    let number = Thousands.format(state.selectedPosition + 1)
    let n = switch state.positionAccuracy {
    case .exact: number
    case .approximate: "~" + number
    case .atLeast: number + "+"
    }
    guard let total = state.counts.total else { return "row \(n)" }
    if let cap = state.counts.cap, total > cap {
        return "row \(n) of \(Thousands.format(max(cap, state.selectedPosition + 1)))+"
    }
    return "row \(n) of \(Thousands.format(max(total, state.selectedPosition + 1)))"
}

/// The `/` prompt line: the query's end (where the cursor is) always shows, with its mode, match count and
/// hints as far as they fit; a malformed qualifier's reason takes the line above (see `renderQueryProblem`).
func renderPrompt(_ state: AppState, into screen: inout Screen, y: Int) {
    let s = state.search
    let problemAbove = s.query.problems.first != nil && y >= 2
    var parts = [s.kind == .filter ? "filter" : "highlight"]
    if let problem = s.query.problems.first {
        // A malformed qualifier matches nothing: say why instead of "0 matches".
        parts.append(problemAbove ? "no match: see above" : TextWidth.safe(problem))
    } else if let n = s.matchCount {
        parts.append("\(CountText.total(n, state.counts)) match\(n == 1 ? "" : "es")")
    }
    parts.append("Tab: \(s.kind == .filter ? "highlight" : "filter")")
    parts.append("⏎ keep  Esc clear")
    // "/", the text, the cursor: the text gets at least half the line, the hints what is left.
    let available = max(1, screen.width - 2)
    let text = TextWidth.safe(s.text)
    let wanted = TextWidth.of(text)
    func infoText(_ n: Int) -> String { parts.prefix(n).joined(separator: " · ") + " " }
    let textMinimum = min(wanted, available / 2)
    var shownParts = parts.count
    while shownParts > 0, TextWidth.of(infoText(shownParts)) + 1 > available - textMinimum { shownParts -= 1 }
    let info = shownParts > 0 ? infoText(shownParts) : ""
    let textRoom = max(1, available - (info.isEmpty ? 0 : TextWidth.of(info) + 1))
    var x = screen.put("/", x: 0, y: y, style: Style(fg: .accent, bg: .statusBar, bold: true))
    x += screen.put(PromptText.tail(text, to: textRoom), x: x, y: y, style: Style(bg: .statusBar, bold: true))
    screen.put(" ", x: x, y: y, style: Style(reverse: true))
    if !info.isEmpty {
        screen.put(info, x: screen.width - TextWidth.of(info), y: y, style: Style(fg: .muted, bg: .statusBar))
    }
    if problemAbove { renderQueryProblem(state, into: &screen, y: y - 1) }
}

/// The reason a typed query matches nothing, above the prompt: wrapped over up to three lines (never more
/// than the list's height less one), the last cut with `…` when it does not fit.
func renderQueryProblem(_ state: AppState, into screen: inout Screen, y bottom: Int) {
    guard let problem = state.search.query.problems.first else { return }
    let style = Style(fg: .error, bg: .statusBar, bold: true)
    let room = max(1, screen.width - 2)
    var lines = TextWidth.wrap("⚠ " + TextWidth.safe(problem), to: room)
    let most = max(1, min(3, state.listHeight - 1))
    if lines.count > most {
        lines = Array(lines.prefix(most))
        lines[most - 1] = TextWidth.truncate(lines[most - 1] + " …", to: room)
    }
    for (i, line) in lines.enumerated() {
        let y = bottom - (lines.count - 1) + i
        screen.fill(y: y, width: screen.width, style: style)
        screen.put(line, x: 1, y: y, style: style)
    }
}

/// Text in a line too short for it: its end, where the cursor is, with `…` for what scrolled off the left.
enum PromptText {
    static func tail(_ text: String, to columns: Int) -> String {
        guard TextWidth.of(text) > columns else { return text }
        guard columns > 1 else { return String(text.suffix(columns > 0 ? 1 : 0)) }
        var out = text
        while TextWidth.of(out) > columns - 1, !out.isEmpty { out.removeFirst() }
        return "…" + out
    }
}

/// Counts as shown while a capped count (`Counts.cap`) stands in for the exact one.
enum CountText {
    /// A total or match count: "1,000+" past the cap, else the number.
    static func total(_ n: Int, _ counts: Counts) -> String {
        if let cap = counts.cap, n > cap { return Thousands.format(cap) + "+" }
        return Thousands.format(n)
    }

    /// A per-status count: a lower bound "N+" while the counts are not exact (a capped count stopped, or
    /// they are a first screenful's).
    static func perStatus(_ n: Int, _ counts: Counts) -> String {
        guard counts.cap != nil else { return "\(n)" }
        return "\(n)+"
    }
}

/// `1,234,567`.
enum Thousands {
    static func format(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }
}

/// Poller state in words for the status bar.
enum PollerText {
    /// How old the last receive must be before the status bar shows its age. A healthy long poll answers
    /// within 20 s (then the age says nothing, and counting it up would redraw an idle screen every second);
    /// an older one is news: the endpoint went quiet.
    static let receiveAgeShownAfterMicros: Int64 = 30_000_000

    static func describe(_ p: PollerStatusView, nowMicros: Int64) -> String {
        let last = p.lastReceiveMicros.map { micros -> String in
            guard nowMicros - micros >= receiveAgeShownAfterMicros else { return "" }
            return " · last receive \(TimeFormat.relative(fromMicros: micros, nowMicros: nowMicros)) ago"
        } ?? ""
        switch p.state {
        case .connecting: return "◌ connecting…"
        case .connected: return "● connected" + last
        case .receiving: return "● receiving" + last
        case .backingOff(let until, let problem):
            let wait = max(0, (until - nowMicros + 999_999) / 1_000_000)
            return "◔ retry in \(wait)s: \(TextWidth.safe(problem.summary)) · ! details"
        case .stopped(let problem): return "■ stopped: \(TextWidth.safe(problem.summary)) · ! details · R retry"
        case .disabled: return "no poll: reading the database"
        }
    }

    static func style(_ p: PollerStatusView) -> Style {
        switch p.state {
        case .connected, .receiving: Style(fg: .success, bg: .statusBar)
        case .backingOff: Style(fg: .warning, bg: .statusBar, bold: true)
        case .stopped: Style(fg: .error, bg: .statusBar, bold: true)
        case .connecting, .disabled: Style(fg: .muted, bg: .statusBar)
        }
    }
}
