/// Every key, as listed by the `?` help overlay (the single source for the help text).
public enum KeyBindings {
    public typealias Section = (title: String, keys: [(String, String)])

    public static let move: Section = ("Move", [
        ("j k ↓ ↑", "next / previous task"),
        ("PgDn PgUp", "page down / up"),
        ("Ctrl-d Ctrl-u", "half page down / up"),
        ("G End", "oldest task"),
        ("f gg Home", "FOLLOW the newest"),
        ("e w", "next error / warning"),
        ("wheel click", "scroll / select"),
    ])
    public static let search: Section = ("Search and filter", [
        ("/", "search as you type"),
        ("Tab", "filter ⇄ highlight"),
        ("n N", "next / previous match"),
        ("⏎ Esc", "keep / clear search"),
        ("1 2 3 4 5", "status filter on/off"),
        ("0", "clear status filter"),
        ("status: task:", "and agent: category:"),
        ("since: is:", "since:15m is:marked"),
    ])
    public static let view: Section = ("View", [
        ("⏎ l →", "open task detail"),
        ("Esc h ←", "close detail"),
        ("J K", "scroll detail pane"),
        ("z", "expand/fold long text"),
        ("t", "relative/absolute time"),
        ("?", "this help"),
        ("q Ctrl-c", "quit"),
    ])
    public static let marks: Section = ("Marks and views", [
        ("m", "mark / unmark task (*)"),
        ("'", "next marked task"),
        ("x", "export task to ./…md"),
        ("v", "pick a named view"),
        (":", ":save / :view NAME"),
    ])
    public static let glyphs: Section = ("Glyphs", [
        ("● ◐ ✓ ▲ ✗", "info run ok warn error"),
        ("⠋ ◌", "live / stale (10 min)"),
    ])

    /// Two columns: movement and view keys and glyphs, then search keys, marks and views.
    public static let columns: [[Section]] = [[move, view, glyphs], [search, marks]]
}

/// Draws the help overlay as a centered box (two columns when wide enough, else one).
func renderHelp(_ state: AppState, into screen: inout Screen) {
    let keyWidth = 15
    let columnWidth = keyWidth + 22
    func lines(_ sections: [KeyBindings.Section]) -> [(String, String, Bool)] {
        var out: [(String, String, Bool)] = []
        for (i, section) in sections.enumerated() {
            if i > 0 { out.append(("", "", false)) }
            out.append((section.title, "", true))
            for (k, d) in section.keys { out.append((k, d, false)) }
        }
        return out
    }
    let twoColumns = screen.width >= 2 * columnWidth + 5
    let columns = twoColumns ? KeyBindings.columns.map(lines) : [lines(KeyBindings.columns.flatMap { $0 })]
    let innerWidth = min(screen.width - 2, twoColumns ? 2 * columnWidth + 3 : columnWidth + 2)
    let innerHeight = min(screen.height - 2, (columns.map(\.count).max() ?? 0) + 2)
    guard innerWidth > 10, innerHeight > 2 else { return }
    let x0 = (screen.width - innerWidth - 2) / 2
    let y0 = (screen.height - innerHeight - 2) / 2
    let border = Style(fg: .accent, bold: true)
    screen.fill(x: x0, y: y0, width: innerWidth + 2, height: innerHeight + 2, style: .plain)
    screen.put("┌" + String(repeating: "─", count: innerWidth) + "┐", x: x0, y: y0, style: border)
    screen.put("└" + String(repeating: "─", count: innerWidth) + "┘", x: x0, y: y0 + innerHeight + 1, style: border)
    for y in 1...innerHeight {
        screen.put("│", x: x0, y: y0 + y, style: border)
        screen.put("│", x: x0 + innerWidth + 1, y: y0 + y, style: border)
    }
    screen.put(" Keys · any key closes ", x: x0 + 2, y: y0, style: border)
    for (c, column) in columns.enumerated() {
        let cx = x0 + 2 + c * (columnWidth + 2)
        for (i, (k, d, heading)) in column.enumerated() {
            let y = y0 + 2 + i
            guard y <= y0 + innerHeight else { break }
            if heading {
                screen.put(k, x: cx, y: y, style: Style(fg: .accent, bold: true), limit: columnWidth)
            } else {
                screen.put(k, x: cx, y: y, style: Style(bold: true), limit: keyWidth - 1)
                screen.put(d, x: cx + keyWidth, y: y, style: .plain, limit: min(22, x0 + innerWidth + 1 - cx - keyWidth))
            }
        }
    }
}
