import TimelineCore

/// How an unread task is marked beside its status glyph (its title is bold too).
enum UnreadMark {
    static let glyph = "•"
}

/// Tasks waiting for the user, as the header says it: with the key that goes to them.
enum WaitingText {
    static func header(_ n: String) -> String {
        "\(StatusGlyph.glyph(.needsInput)) \(n) \(StatusGlyph.label(.needsInput)) (i)"
    }
}

/// Header: "• 2 unread errors" after the per-status counts, and "? 1 need you (i)" when the per-status
/// counts do not show it already (a filter hides the waiting tasks): said once (returns the next x).
func renderAttention(_ state: AppState, into screen: inout Screen, x start: Int, limit: Int, waitingShown: Bool) -> Int {
    guard let a = state.attention else { return start }
    var x = start
    let parts: [(String, ColorRole)] = [
        (a.unreadErrors > 0 ? "\(UnreadMark.glyph) \(a.unreadErrors) unread error\(a.unreadErrors == 1 ? "" : "s")" : "", .error),
        (a.waiting > 0 && !waitingShown ? WaitingText.header("\(a.waiting)") : "", .needsInput),
    ]
    for (text, role) in parts where !text.isEmpty {
        guard x + TextWidth.of(text) < limit else { break }
        x += screen.put(text, x: x, y: 0, style: Style(fg: role, bg: .headerBar, bold: true)) + 2
    }
    return x
}
