import TimelineCore

/// How an unread task is marked beside its status glyph (its title is bold too).
enum UnreadMark {
    static let glyph = "•"
}

/// Header: "✗ 2 unread  ? 1 waiting" after the per-status counts, when there is any (returns the next x).
func renderAttention(_ state: AppState, into screen: inout Screen, x start: Int) -> Int {
    guard let a = state.attention else { return start }
    var x = start
    let parts: [(String, ColorRole)] = [
        (a.unreadErrors > 0 ? "\(UnreadMark.glyph) \(a.unreadErrors) unread error\(a.unreadErrors == 1 ? "" : "s")" : "", .error),
        (a.waiting > 0 ? "\(a.waiting) waiting" : "", .warning),
    ]
    for (text, role) in parts where !text.isEmpty {
        guard x + TextWidth.of(text) < screen.width else { break }
        x += screen.put(text, x: x, y: 0, style: Style(fg: role, bg: .headerBar, bold: true)) + 2
    }
    return x
}
