/// Every key, as listed by the `?` help overlay (the single source for the help text).
public enum KeyBindings {
    public static let sections: [(title: String, keys: [(String, String)])] = [
        ("Move", [
            ("j k ↓ ↑", "next / previous task"),
            ("PgDn PgUp Space", "page down / up"),
            ("Ctrl-d Ctrl-u", "half page down / up"),
            ("G End", "oldest task (BROWSE)"),
            ("f gg Home", "FOLLOW the newest"),
            ("e w", "next error / warning"),
            ("wheel, click", "scroll, select"),
        ]),
        ("Search and filter", [
            ("/", "search (incremental)"),
            ("Tab", "filter ⇄ highlight mode"),
            ("n N", "next / previous match"),
            ("⏎ Esc", "keep / clear the search"),
            ("1 2 3 4 5", "toggle info running ok warn error"),
            ("0", "clear status filter"),
            ("status: agent: category: task:", "qualifiers"),
        ]),
        ("View", [
            ("⏎ l →", "open task detail"),
            ("Esc h ←", "close detail"),
            ("J K", "scroll the detail pane"),
            ("t", "relative / absolute time"),
            ("?", "this help"),
            ("q Ctrl-c", "quit"),
        ]),
        ("Glyphs", [
            ("● ◐ ✓ ▲ ✗", "info running ok warn error"),
            ("⠋ ◌", "live task / stale (10 min quiet)"),
        ]),
    ]
}

/// Draws the help overlay as a centered box.
func renderHelp(_ state: AppState, into screen: inout Screen) {
    let keyWidth = 18
    var lines: [(String, String, Bool)] = []
    for (i, section) in KeyBindings.sections.enumerated() {
        if i > 0 { lines.append(("", "", false)) }
        lines.append((section.title, "", true))
        for (k, d) in section.keys { lines.append((k, d, false)) }
    }
    let innerWidth = min(screen.width - 4, 62)
    let innerHeight = min(screen.height - 4, lines.count + 2)
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
    let title = " Keys — any key closes "
    screen.put(title, x: x0 + 2, y: y0, style: border)
    let shown = lines.prefix(innerHeight - 1)
    for (i, (k, d, heading)) in shown.enumerated() {
        let y = y0 + 2 + i
        guard y <= y0 + innerHeight else { break }
        if heading {
            screen.put(k, x: x0 + 2, y: y, style: Style(fg: .accent, bold: true), limit: innerWidth - 2)
        } else {
            screen.put(k, x: x0 + 2, y: y, style: Style(bold: true), limit: keyWidth)
            screen.put(d, x: x0 + 3 + keyWidth, y: y, style: .plain, limit: innerWidth - keyWidth - 3)
        }
    }
}
