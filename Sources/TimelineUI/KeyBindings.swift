/// Every key, as listed by the `?` help overlay (the single source for the help text).
public enum KeyBindings {
    public typealias Section = (title: String, keys: [(String, String)])

    public static let move: Section = ("Move", [
        ("j k ↓ ↑", "next / previous task"),
        ("Ctrl-n Ctrl-p", "next / previous task"),
        ("PgDn PgUp", "page down / up"),
        ("Space b", "page down / up"),
        ("Ctrl-f Ctrl-b", "page down / up"),
        ("Ctrl-d Ctrl-u", "half page down / up"),
        ("G End", "oldest task (bottom)"),
        ("g F f Home", "FOLLOW newest (top)"),
        ("e w", "next error / warning"),
        ("E W", "prev error / warning"),
        ("wheel click", "scroll / select"),
        ("M", "mouse on / off"),
    ])
    public static let search: Section = ("Search and filter", [
        ("/", "search as you type"),
        ("Tab", "filter ⇄ highlight"),
        ("n N", "next / previous match"),
        ("⏎ Esc", "keep / clear search"),
        ("↑ ↓", "earlier searches (/)"),
        ("1 2 3 4 5 6", "status filter on/off"),
        ("0", "clear status filter"),
        ("status: task:", "and agent: category:"),
        ("since: is:", "since:15m is:marked"),
    ])
    public static let view: Section = ("View", [
        ("⏎ l →", "open task detail"),
        ("Esc h ←", "close detail"),
        ("J K", "scroll detail pane"),
        ("Space U", "read+page / all read"),
        ("z", "expand/fold long text"),
        ("t", "relative/absolute time"),
        ("!", "full poller message"),
        ("X", "rejected messages"),
        ("R", "restart stopped poller"),
        ("Ctrl-l Ctrl-z", "redraw / suspend (fg)"),
        ("? F1", "this help"),
        ("q :q F10", "quit (Ctrl-c too)"),
    ])
    public static let marks: Section = ("Marks and views", [
        ("m", "mark / unmark task (*)"),
        ("P", "pin / unpin to the top"),
        ("'", "next marked task"),
        ("x", "export task to ./…md"),
        ("v", "pick a named view"),
        (":", ":save / :view NAME"),
    ])
    public static let glyphs: Section = ("Glyphs", [
        ("● ◐ ✓ ▲ ✗", "info run ok warn error"),
        ("?", "needs you (input)"),
        ("⠋ ◌ •", "live / stale / unread"),
    ])
    public static let answer: Section = ("Answer agents", [
        ("i", "jump to who waits"),
        ("1 2 3", "pick action (detail)"),
        ("y", "send (else: cancel)"),
        ("r R", "text reply / resend"),
        ("A", "agents · r message"),
    ])

    /// Two columns: movement keys, marks and views, glyphs; then search and view keys and answering (scrolls when it
    /// does not fit).
    public static let columns: [[Section]] = [[move, marks, glyphs], [search, view, answer]]
}

/// Geometry of the help overlay, shared by `reduce` (scrolling) and `render`.
enum HelpLayout {
    static let keyWidth = 15
    static let columnWidth = keyWidth + 22

    typealias Line = (key: String, text: String, heading: Bool)

    static func twoColumns(width: Int) -> Bool { width >= 2 * columnWidth + 5 }

    /// The overlay's columns of lines (two side by side when wide enough, else one).
    static func columns(width: Int) -> [[Line]] {
        func lines(_ sections: [KeyBindings.Section]) -> [Line] {
            var out: [Line] = []
            for (i, section) in sections.enumerated() {
                if i > 0 { out.append(("", "", false)) }
                out.append((section.title, "", true))
                for (k, d) in section.keys { out.append((k, d, false)) }
            }
            return out
        }
        return twoColumns(width: width) ? KeyBindings.columns.map(lines) : [lines(KeyBindings.columns.flatMap { $0 })]
    }

    static func longest(width: Int) -> Int { columns(width: width).map(\.count).max() ?? 0 }

    /// Rows inside the border: all lines and a blank one above and below when they fit, else the whole screen.
    static func innerHeight(width: Int, height: Int) -> Int { min(height - 2, longest(width: width) + 2) }

    /// Lines of keys shown at once.
    static func visibleLines(_ s: AppState) -> Int {
        let inner = innerHeight(width: s.width, height: s.height)
        return max(1, inner >= longest(width: s.width) + 2 ? longest(width: s.width) : inner)
    }

    /// Lines that do not fit (the most the overlay scrolls).
    static func hiddenLines(_ s: AppState) -> Int { max(0, longest(width: s.width) - visibleLines(s)) }
}

/// Draws the help overlay as a centered box; it scrolls (j/k) when the terminal is too small for it.
func renderHelp(_ state: AppState, into screen: inout Screen) {
    let keyWidth = HelpLayout.keyWidth
    let columnWidth = HelpLayout.columnWidth
    let twoColumns = HelpLayout.twoColumns(width: screen.width)
    let columns = HelpLayout.columns(width: screen.width)
    let innerWidth = min(screen.width - 2, twoColumns ? 2 * columnWidth + 3 : columnWidth + 2)
    let innerHeight = HelpLayout.innerHeight(width: screen.width, height: screen.height)
    guard innerWidth > 6, innerHeight >= 1 else { return }
    let visible = HelpLayout.visibleLines(state)
    let hidden = HelpLayout.hiddenLines(state)
    let scroll = min(max(0, state.helpScroll), hidden)
    let top = innerHeight > visible ? 2 : 1
    let box = OverlayBox(innerWidth: innerWidth, innerHeight: innerHeight, centeredOn: screen)
    let (x0, y0) = (box.x0, box.y0)
    let border = Style(fg: .accent, bold: true)
    let long = " Keys · any key closes "
    box.draw(title: TextWidth.of(long) <= box.titleRoom ? long : " Keys ", style: border, into: &screen)
    if hidden > 0 {
        let more = "\(scroll > 0 ? "↑" : " ")\(scroll < hidden ? "↓" : " ") j/k "
        screen.put(more, x: x0 + max(1, innerWidth - TextWidth.of(more)), y: y0 + innerHeight + 1, style: border,
                   limit: innerWidth)
    }
    for (c, column) in columns.enumerated() {
        let cx = x0 + (innerWidth < columnWidth ? 1 : 2) + c * (columnWidth + 2)
        let room = x0 + innerWidth + 1 - cx
        for (i, line) in column.dropFirst(scroll).prefix(visible).enumerated() {
            let y = y0 + top + i
            if line.heading {
                screen.put(line.key, x: cx, y: y, style: Style(fg: .accent, bold: true), limit: min(columnWidth, room))
            } else {
                let keys = min(keyWidth, max(6, room / 2))
                screen.put(line.key, x: cx, y: y, style: Style(bold: true), limit: keys - 1)
                screen.put(line.text, x: cx + keys, y: y, style: .plain, limit: min(22, room - keys))
            }
        }
    }
}
